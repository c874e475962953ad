import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { latsFlagsIgnoredNote, latsFromFlags, latsOptions } from "@/lib/cli/lats-flags";

/** Parses `args` with the LATS options the way `cli run` registers them; the error commander reports, if any. */
function parse(args: string[]): { options: Record<string, unknown>; error: string | null } {
  const program = new Command().exitOverride().configureOutput({ writeErr: () => undefined });
  for (const option of latsOptions()) program.addOption(option);
  try {
    program.parse(args, { from: "user" });
    return { options: program.opts(), error: null };
  } catch (error) {
    return { options: {}, error: error instanceof Error ? error.message : String(error) };
  }
}

describe("cli run's LATS flags", () => {
  it("become the run's lats settings and trial budget", () => {
    const { options } = parse(["--lats-children", "4", "--lats-iterations", "6", "--lats-exploration", "1.5"]);
    expect(latsFromFlags(options)).toEqual({ lats: { children: 4, exploration: 1.5 }, maxTrials: 6 });
    expect(latsFromFlags({})).toEqual({});
  });

  it("name the flag and the range in a bad value's error", () => {
    expect(parse(["--lats-children", "0"]).error).toMatch(/--lats-children <n>' argument '0' is invalid\. expected a whole number from 1 to 10/);
    expect(parse(["--lats-exploration", "abc"]).error).toMatch(/--lats-exploration <w>' argument 'abc' is invalid\. expected a number from 0 to 10/);
    expect(parse(["--lats-iterations", "2.5"]).error).toMatch(/--lats-iterations/);
  });

  it("are noted as ignored under a method that is not a tree search", () => {
    expect(latsFlagsIgnoredNote({ latsChildren: 2, latsIterations: 3 }, false)).toBe("note: --lats-children, --lats-iterations apply to --strategy lats only; this run ignores them.");
    expect(latsFlagsIgnoredNote({ latsChildren: 2 }, true)).toBeNull();
    expect(latsFlagsIgnoredNote({}, false)).toBeNull();
  });
});
