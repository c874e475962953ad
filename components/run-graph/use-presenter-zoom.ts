"use client";

import { useReactFlow, useStore } from "@xyflow/react";
import { useEffect, useRef } from "react";

/**
 * Presenter mode's zoom: at least 1 when presenter mode starts (or the graph first has a size in
 * it), keeping the view's centre, so node text drawn at 16 px (app/globals.css) is 16 px on the
 * projector — not 16 px scaled to 11 by a zoomed-out view. Applied once per entry into presenter
 * mode: the teacher may still zoom out by hand.
 */
export function usePresenterZoom(presenter: boolean, hasNodes: boolean): void {
  const { getViewport, setViewport } = useReactFlow();
  const width = useStore((state) => state.width);
  const height = useStore((state) => state.height);
  const applied = useRef(false);
  useEffect(() => {
    if (!presenter) {
      applied.current = false;
      return;
    }
    if (applied.current || !hasNodes || width === 0 || height === 0) return;
    applied.current = true;
    const { x, y, zoom } = getViewport();
    if (zoom >= 1) return;
    const centreX = (width / 2 - x) / zoom;
    const centreY = (height / 2 - y) / zoom;
    void setViewport({ zoom: 1, x: width / 2 - centreX, y: height / 2 - centreY });
  }, [presenter, hasNodes, width, height, getViewport, setViewport]);
}
