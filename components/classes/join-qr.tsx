"use client";

import { useMemo } from "react";
import { qrPath } from "./qr-path";

/** Modules of white border around the code (the QR standard asks for 4). */
const QUIET = 4;

/**
 * The QR code of the student join URL, drawn inline as SVG: black on white whatever the theme
 * (phones' cameras read dark-on-light), square, scaled to the box it is given.
 */
export function JoinQr({ url, className }: { url: string; className?: string }) {
  const qr = useMemo(() => qrPath(url), [url]);
  const side = qr.size + QUIET * 2;
  return (
    <svg viewBox={`${-QUIET} ${-QUIET} ${side} ${side}`} role="img" aria-label={`QR code of ${url}`} className={className} data-testid="class-qr" data-url={url} shapeRendering="crispEdges">
      <rect x={-QUIET} y={-QUIET} width={side} height={side} fill="#ffffff" />
      <path d={qr.d} fill="#000000" />
    </svg>
  );
}
