import { describe, expect, it } from "vitest";
import { linkNodeStatus, missingNodeMessage, NARROW_SCREEN_QUERY } from "@/components/replay/link-node";

/** A link's `?node=`: selected when drawn at the cursor, kept quiet when it comes later, and named in a notice when the branch has no such event. */
describe("a link's node", () => {
  const events = [{ id: "e1" }, { id: "e2" }, { id: "e3" }];

  it("is shown, later or missing", () => {
    expect(linkNodeStatus(events, null, "e3")).toBe("shown");
    expect(linkNodeStatus(events, 2, "e2")).toBe("shown");
    expect(linkNodeStatus(events, 2, "e3")).toBe("later");
    expect(linkNodeStatus(events, null, "garbage")).toBe("missing");
  });

  it("a missing node is named in the notice (shortened)", () => {
    expect(missingNodeMessage("garbage")).toBe("That link's node is not in this run (garbage): the page opens without a selection.");
    const long = missingNodeMessage("x".repeat(100));
    expect(long).toContain(`${"x".repeat(39)}…`);
    expect(long).not.toContain("x".repeat(41));
  });

  it("narrow means below Tailwind's lg breakpoint (1024 px), where one pane shows at a time", () => {
    expect(NARROW_SCREEN_QUERY).toBe("(max-width: 1023.98px)");
  });
});
