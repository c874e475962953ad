import { describe, expect, it } from "vitest";
import { formatCostTotal } from "@/components/ui/format";
import { INTERRUPTED_MESSAGE, pauseBanner, trialChipLabel, trialChipState, withoutResumeAdvice } from "@/components/run/run-messages";

describe("formatCostTotal", () => {
  it("shows the sum when every call was priced", () => {
    expect(formatCostTotal({ costUsd: 0.0123, calls: 3, unpricedCalls: 0 })).toBe("$0.0123");
    expect(formatCostTotal({ costUsd: 0, calls: 4, unpricedCalls: 0 })).toBe("$0");
    expect(formatCostTotal({ costUsd: 0, calls: 0, unpricedCalls: 0 })).toBe("$0");
  });

  it("says unknown, not $0, when no call was priced", () => {
    expect(formatCostTotal({ costUsd: 0, calls: 5, unpricedCalls: 5 })).toBe("unknown");
  });

  it("gives a lower bound with the number of unpriced calls when some were priced", () => {
    expect(formatCostTotal({ costUsd: 0.5, calls: 5, unpricedCalls: 2 })).toBe("≥ $0.5000 (2 calls unpriced)");
    expect(formatCostTotal({ costUsd: 0.002, calls: 2, unpricedCalls: 1 })).toBe("≥ $0.00200 (1 call unpriced)");
  });
});

describe("paused and interrupted banners", () => {
  it("says resume continues from the last recorded step", () => {
    expect(INTERRUPTED_MESSAGE).toContain("Resume to continue from the last recorded step; nothing recorded is lost.");
    expect(INTERRUPTED_MESSAGE).not.toMatch(/checkpoint/i);
  });

  const resumeCount = (text: string) => (text.match(/resume/gi) ?? []).length;
  const bannerText = (banner: ReturnType<typeof pauseBanner>) => [banner.headline, banner.detail, banner.instruction].filter(Boolean).join(" ");

  it.each([
    "Anthropic rejected the request (HTTP 404: model not found). Pick another model, then resume the run. Resume the run to retry this call.",
    "OpenAI is rate-limiting requests (HTTP 429) after 3 tries. Wait a minute and resume the run, or pick a model with a higher rate limit. Resume the run to retry this call.",
    "The local server refused the connection after 2 tries. Is it running? Start it and resume the run. Resume the run to retry this call.",
    "OpenAI sent an empty or malformed response (bad json). Resume the run to try again; if it keeps happening, check the server's logs or pick another model. Resume the run to retry this call.",
    "The call to OpenAI was cancelled before it finished. Resume the run to make the call again. Resume the run to retry this call.",
    "Check OPENAI_API_KEY on the server (restart it after changing it), then resume the run. Resume the run to retry this call.",
  ])("a model-error pause says resume once: %s", (detail) => {
    const banner = pauseBanner({ reason: "model-error", detail }, { canEditMemory: true });
    expect(resumeCount(bannerText(banner))).toBe(1);
    expect(banner.instruction).toBe("Press Resume to retry the call.");
    expect(banner.detail).toMatch(/[.?!]$/);
  });

  it("keeps the useful parts of a model error", () => {
    expect(withoutResumeAdvice("OpenAI is rate-limiting requests (HTTP 429). Wait a minute and resume the run, or pick a model with a higher rate limit. Resume the run to retry this call.")).toBe(
      "OpenAI is rate-limiting requests (HTTP 429). Wait a minute, or pick a model with a higher rate limit.",
    );
    expect(withoutResumeAdvice("X sent an empty response. Resume the run to try again; if it keeps happening, pick another model.")).toBe(
      "X sent an empty response. If it keeps happening, pick another model.",
    );
    expect(withoutResumeAdvice("Model gpt-4.1 failed: boom. Check the server logs, then resume the run.")).toBe("Model gpt-4.1 failed: boom. Check the server logs.");
    // Nothing but resume advice: keep the text rather than show nothing.
    expect(withoutResumeAdvice("Resume the run to retry this call.")).toBe("Resume the run to retry this call.");
  });

  it("a user pause says who paused once; a breakpoint pause points at the memory editor", () => {
    expect(pauseBanner({ reason: "user", detail: "Paused by the user." }, { canEditMemory: false })).toEqual({
      headline: "Paused by the user.",
      detail: null,
      instruction: "Resume to continue.",
    });
    expect(pauseBanner({ reason: "some-new-reason", detail: "Stopped after one step" }, { canEditMemory: false })).toEqual({
      headline: "Paused.",
      detail: "Stopped after one step.",
      instruction: "Resume to continue.",
    });
    const breakpoint = pauseBanner({ reason: "breakpoint", detail: "Breakpoint: after the reflection on trial 1." }, { canEditMemory: true });
    expect(breakpoint.headline).toBe("Paused.");
    expect(breakpoint.detail).toBe("Breakpoint: after the reflection on trial 1.");
    expect(breakpoint.instruction).toMatch(/edit the newest reflection/);
  });
});

describe("trial chip", () => {
  it("shows the outcome once there is one", () => {
    expect(trialChipState("success", "ended")).toBe("success");
    expect(trialChipState("failure", "paused")).toBe("failure");
  });

  it("says running only while the run runs", () => {
    expect(trialChipLabel(trialChipState(null, "running"))).toBe("running…");
    expect(trialChipLabel(trialChipState(null, null))).toBe("running…");
    expect(trialChipLabel(trialChipState(null, "paused"))).toBe("paused");
    expect(trialChipLabel(trialChipState(null, "interrupted"))).toBe("interrupted");
    expect(trialChipLabel(trialChipState(null, "error"))).toBe("stopped (error)");
    expect(trialChipLabel(trialChipState(null, "ended"))).toBe("unfinished");
  });

  it("says replaying, not running, for a trial past the replay cursor", () => {
    expect(trialChipLabel(trialChipState(null, "replaying"))).toBe("replaying");
    expect(trialChipState("failure", "replaying")).toBe("failure");
  });
});
