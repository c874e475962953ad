import { expect, type Locator, type Page } from "@playwright/test";

/** The run page: the graph, the inspector, the memory and steer panels, branches and controls. */
export class RunPage {
  constructor(private readonly page: Page) {}

  /** The id of the branch shown (the root branch's id when the URL names none). */
  async currentBranchId(): Promise<string> {
    return this.page.getByTestId("branch-switcher").inputValue();
  }

  /** Shows another branch with the switcher and waits until the page shows it. */
  async switchToBranch(branchId: string): Promise<void> {
    await expect(this.page.getByTestId(`branch-option-${branchId}`)).toBeAttached();
    await this.page.getByTestId("branch-switcher").selectOption(branchId);
    await expect(this.page.getByTestId("run-workspace")).toHaveAttribute("data-branch-id", branchId);
  }

  /** Opens a node in the inspector with the keyboard (focus + Enter), as {@link promptOf} does. */
  async open(node: Locator): Promise<void> {
    const wrapper = node.locator("xpath=ancestor::div[contains(concat(' ', @class, ' '), ' react-flow__node ')][1]");
    await wrapper.focus();
    await this.page.keyboard.press("Enter");
    await expect(this.page.getByTestId("inspector")).toBeVisible();
  }

  /**
   * Opens `node` (a reflection or evaluation), uses Fork here, optionally
   * replaces the reflection text, picks the replay mode and forks. Resolves
   * with the new branch's id once the page shows it.
   */
  async forkFrom(node: Locator, options: { replay?: "recorded" | "live"; reflectionText?: string } = {}): Promise<string> {
    const before = this.page.url();
    await this.open(node);
    await this.page.getByTestId("fork-here").click();
    const dialog = this.page.getByTestId("fork-dialog");
    await expect(dialog).toBeVisible();
    await dialog.getByTestId(`fork-replay-${options.replay ?? "recorded"}`).check();
    if (options.reflectionText !== undefined) await dialog.getByTestId("fork-reflection-text").fill(options.reflectionText);
    await dialog.getByTestId("fork-submit").click();
    await expect(dialog).toBeHidden();
    await expect.poll(() => this.page.url()).not.toBe(before);
    const branchId = new URL(this.page.url()).searchParams.get("branch") ?? "";
    expect(branchId).not.toBe("");
    await expect(this.page.getByTestId("run-workspace")).toHaveAttribute("data-branch-id", branchId);
    return branchId;
  }

  /** Turns one breakpoint switch on or off in the breakpoints popover. */
  async setBreakpoint(testId: string, on: boolean): Promise<void> {
    const panel = this.page.getByTestId("breakpoints-panel");
    if (!(await panel.isVisible())) await this.page.getByTestId("breakpoints-toggle").click();
    const toggle = panel.getByTestId(testId);
    if (on) await toggle.check();
    else await toggle.uncheck();
    await expect(toggle).toBeChecked({ checked: on });
    await expect(toggle).toBeEnabled();
    await this.page.keyboard.press("Escape");
    await expect(panel).toBeHidden();
  }

  node(kind: "trial" | "thought" | "action" | "observation" | "evaluation" | "reflection", trial: number): Locator {
    return this.page.locator(`[data-testid="node-${kind}"][data-trial="${trial}"]`);
  }

  /** A code run's `Write tests` or `Implement` action node of a trial (code runs have no thought nodes). */
  codeAction(trial: number, actionType: "WriteTests" | "Implement"): Locator {
    return this.page.locator(`[data-testid="node-action"][data-trial="${trial}"][data-action-type="${actionType}"]`);
  }

  evaluation(trial: number, verdict: "pass" | "fail"): Locator {
    return this.page.locator(`[data-testid="node-evaluation"][data-trial="${trial}"][data-verdict="${verdict}"]`);
  }

  status(): Locator {
    return this.page.getByTestId("run-status");
  }

  /**
   * Starts recording every status the page's pill shows (in the page, with a
   * MutationObserver), so a short-lived one (pausing for a second) is not
   * missed between two polls; read them with {@link statusesSeen}.
   */
  async recordStatuses(): Promise<void> {
    await this.page.evaluate(() => {
      const seen: string[] = [];
      window.__statusesSeen = seen;
      const note = () => {
        const status = document.querySelector('[data-testid="run-status"]')?.getAttribute("data-status");
        if (status && seen[seen.length - 1] !== status) seen.push(status);
      };
      note();
      new MutationObserver(note).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-status"] });
    });
  }

  /** The statuses the pill showed since {@link recordStatuses}, in order, without repeats. */
  async statusesSeen(): Promise<string[]> {
    return this.page.evaluate(() => window.__statusesSeen ?? []);
  }

  /** The node of the model call in flight in `trial` (optionally at Actor step `step`): its text streams in. */
  liveCall(trial: number, step?: number): Locator {
    return this.page.locator(`[data-testid="node-live-call"][data-trial="${trial}"]${step === undefined ? "" : `[data-step="${step}"]`}`);
  }

  /** The text a live-call node has streamed so far. */
  async liveText(node: Locator): Promise<string> {
    return (await node.getByTestId("live-call-text").textContent()) ?? "";
  }

  /** The header's "Actor call · trial 1 step 2 · 14 s" while a call is in flight. */
  callInFlight(): Locator {
    return this.page.getByTestId("call-in-flight");
  }

  /** Seconds the call in flight has run, as the header shows them (null when no call is shown). */
  async callSeconds(): Promise<number | null> {
    const elapsed = this.page.getByTestId("call-elapsed");
    if ((await elapsed.count()) === 0) return null;
    const text = (await elapsed.textContent()) ?? "";
    const match = /^(?:(\d+) min )?(\d+) s$/.exec(text.trim());
    return match ? Number(match[1] ?? 0) * 60 + Number(match[2]) : null;
  }

  pauseButton(): Locator {
    return this.page.getByTestId("pause-run");
  }

  cancelButton(): Locator {
    return this.page.getByTestId("cancel-run");
  }

  /** Cancel → confirm. */
  async cancel(): Promise<void> {
    await this.cancelButton().click();
    await this.page.getByTestId("cancel-run-confirm").click();
  }

  async waitForStatus(status: RegExp): Promise<void> {
    await expect(this.status()).toHaveText(status);
  }

  /**
   * Opens a node in the inspector with the keyboard (focus + Enter, as a keyboard
   * user would; it also works when the node is panned out of view) and returns the
   * exact prompt text the inspector shows.
   */
  async promptOf(node: Locator): Promise<string> {
    const wrapper = node.locator("xpath=ancestor::div[contains(concat(' ', @class, ' '), ' react-flow__node ')][1]");
    await wrapper.focus();
    await this.page.keyboard.press("Enter");
    const text = this.page.getByTestId("inspector-prompt-text");
    await expect(text).toBeAttached();
    return (await text.textContent()) ?? "";
  }

  async editNewestReflection(text: string): Promise<void> {
    const editor = this.page.getByTestId("reflection-editor");
    await editor.fill(text);
    await this.page.getByTestId("save-reflection").click();
  }
}

declare global {
  interface Window {
    /** Statuses the run header showed, in order (recorded in the page by {@link RunPage.recordStatuses}). */
    __statusesSeen?: string[];
  }
}
