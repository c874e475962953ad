/**
 * When the run graph draws its minimap (pure). A minimap is a map of what is off screen; it sits
 * over the graph's bottom-right corner, so it is drawn only where it helps and has room:
 * - never in presenter mode (a projector shows the lesson's nodes, not a map over them);
 * - never in a small graph pane (a phone, a narrow column): below {@link MINIMAP_MIN_PANE} it
 *   would cover a large part of the lanes;
 * - only while part of the graph is off screen: when every node is in view there is nothing to
 *   map, and the minimap would only cover nodes (trial 2's, at 1440 px).
 */

/** The smallest graph pane (px) that draws a minimap: its 150 × 110 px box covers under ~10 % of it. */
export const MINIMAP_MIN_PANE = { width: 640, height: 420 } as const;

/** The graph's laid-out bounds (graph units) and the pane's viewport (px, and React Flow's `[x, y, zoom]` transform). */
export interface MinimapFacts {
  presenter: boolean;
  pane: { width: number; height: number };
  transform: readonly [number, number, number];
  bounds: { minX: number; minY: number; maxX: number; maxY: number } | null;
}

/** True when the minimap is drawn (see the rules above). */
export function showsMinimap({ presenter, pane, transform, bounds }: MinimapFacts): boolean {
  if (presenter || bounds === null) return false;
  if (pane.width < MINIMAP_MIN_PANE.width || pane.height < MINIMAP_MIN_PANE.height) return false;
  const [x, y, zoom] = transform;
  const left = bounds.minX * zoom + x;
  const top = bounds.minY * zoom + y;
  const right = bounds.maxX * zoom + x;
  const bottom = bounds.maxY * zoom + y;
  return left < 0 || top < 0 || right > pane.width || bottom > pane.height;
}
