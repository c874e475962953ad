import { expect, type Locator, type Page } from "@playwright/test";

/** The run page: the graph, the inspector and the memory panel. */
export class RunPage {
  constructor(private readonly page: Page) {}

  node(kind: "trial" | "thought" | "action" | "observation" | "evaluation" | "reflection", trial: number): Locator {
    return this.page.locator(`[data-testid="node-${kind}"][data-trial="${trial}"]`);
  }

  evaluation(trial: number, verdict: "pass" | "fail"): Locator {
    return this.page.locator(`[data-testid="node-evaluation"][data-trial="${trial}"][data-verdict="${verdict}"]`);
  }

  status(): Locator {
    return this.page.getByTestId("run-status");
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
