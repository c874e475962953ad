import { describe, expect, it } from "vitest";
import { MINIMAP_MIN_PANE, showsMinimap } from "@/components/run-graph/minimap-visibility";

/** The minimap is drawn only where it covers no lane for nothing: not presenting, a roomy pane, part of the graph off screen. */
describe("when the run graph draws its minimap", () => {
  const bounds = { minX: 0, minY: 0, maxX: 1200, maxY: 900 };
  const laptop = { width: 1000, height: 800 };

  it("draws it in a roomy pane while part of the graph is off screen", () => {
    expect(showsMinimap({ presenter: false, pane: laptop, transform: [40, 40, 1], bounds })).toBe(true);
  });

  it("not when every node is in view (a two-trial run at 1440 px), in presenter mode, or in a phone-sized pane", () => {
    expect(showsMinimap({ presenter: false, pane: laptop, transform: [40, 40, 0.7], bounds })).toBe(false);
    expect(showsMinimap({ presenter: true, pane: laptop, transform: [40, 40, 1], bounds })).toBe(false);
    expect(showsMinimap({ presenter: false, pane: { width: 390, height: 591 }, transform: [40, 40, 1], bounds })).toBe(false);
    expect(showsMinimap({ presenter: false, pane: { width: MINIMAP_MIN_PANE.width, height: MINIMAP_MIN_PANE.height - 1 }, transform: [40, 40, 1], bounds })).toBe(false);
    expect(showsMinimap({ presenter: false, pane: laptop, transform: [0, 0, 1], bounds: null })).toBe(false);
  });
});
