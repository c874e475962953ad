import { expect, type Page } from "@playwright/test";

/** The home page: the new-run form and the recent runs. */
export class HomePage {
  constructor(private readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto("/");
    await expect(this.page.getByTestId("start-run")).toBeVisible();
  }

  /** Picks a task family (qa, household, code) and waits until its built-in task `taskId` is listed. */
  async chooseEnvironment(environment: string, taskId: string): Promise<void> {
    await this.page.getByTestId("environment-select").selectOption(environment);
    await expect(this.page.getByTestId(`task-option-${taskId}`)).toBeVisible();
  }

  /**
   * Fills the form for a built-in task and starts the run with `model` (the
   * offline demo model unless told otherwise); resolves with the run's id on the run page.
   */
  async startRun(options: { taskId: string; strategy: "none" | "reflexion"; pauseAfterReflection?: boolean; model?: string }): Promise<string> {
    await this.page.getByTestId(`task-option-${options.taskId}`).click();
    await this.page.getByTestId("strategy-select").selectOption(options.strategy);
    await this.page.getByTestId("model-select").selectOption(options.model ?? "demo");
    const pause = this.page.getByTestId("pause-after-reflection");
    if (options.pauseAfterReflection) await pause.check();
    else await pause.uncheck();
    await this.page.getByTestId("start-run").click();
    await this.page.waitForURL(/\/runs\/[0-9a-f-]+$/);
    return this.page.url().split("/").at(-1) ?? "";
  }
}
