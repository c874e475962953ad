import { describe, expect, it } from "vitest";
import { linkNodeStatus, NARROW_SCREEN_QUERY } from "@/components/replay/link-node";

/** A link's `?node=`: selected when drawn at the cursor, not selected when it comes later or is not in the branch. */
describe("a link's node", () => {
  const events = [{ id: "e1" }, { id: "e2" }, { id: "e3" }];

  it("is shown, later or missing", () => {
    expect(linkNodeStatus(events, null, "e3")).toBe("shown");
    expect(linkNodeStatus(events, 2, "e2")).toBe("shown");
    expect(linkNodeStatus(events, 2, "e3")).toBe("later");
    expect(linkNodeStatus(events, null, "garbage")).toBe("missing");
  });

  it("narrow means below Tailwind's lg breakpoint (1024 px), where one pane shows at a time", () => {
    expect(NARROW_SCREEN_QUERY).toBe("(max-width: 1023.98px)");
  });
});
