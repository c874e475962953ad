import { expect, type Locator, type Page } from "@playwright/test";

/** The experiments list, the "New experiment" form, an experiment's results page and the compare view. */
export class ExperimentsPage {
  constructor(private readonly page: Page) {}

  /** Opens the list from the header link, as a person would from any page. */
  async openListFromHeader(): Promise<void> {
    await this.page.goto("/");
    await this.page.getByTestId("nav-experiments").click();
    await this.page.waitForURL(/\/experiments$/);
    await expect(this.page.getByTestId("new-experiment")).toBeVisible();
  }

  /**
   * Fills the form: the family's built-in set, all tasks, arms `arms` (one per
   * strategy, labelled by it or by `labels`) on `model`, `trials` trials and
   * `repeats` repetitions (default 1); starts it and resolves with the
   * experiment's id on its results page.
   */
  async startFromForm(options: { environment: string; arms: string[]; labels?: string[]; model: string; trials: number; repeats?: number }): Promise<string> {
    await this.page.getByTestId("new-experiment").click();
    await this.page.waitForURL(/\/experiments\/new$/);
    await this.page.getByTestId("experiment-environment").selectOption(options.environment);
    await this.page.getByTestId("experiment-task-set").selectOption("builtin");
    await this.page.getByTestId("tasks-all").check();
    const rows = this.page.getByTestId("arm-row");
    while ((await rows.count()) < options.arms.length) await this.page.getByTestId("add-arm").click();
    while ((await rows.count()) > options.arms.length) await rows.last().getByTestId("remove-arm").click();
    for (const [index, strategy] of options.arms.entries()) {
      const row = rows.nth(index);
      await row.getByTestId("arm-strategy").selectOption(strategy);
      await row.getByTestId("arm-label").fill(options.labels?.[index] ?? strategy);
      await row.getByTestId("arm-model").selectOption(options.model);
    }
    await this.page.getByTestId("experiment-trials").fill(String(options.trials));
    if (options.repeats !== undefined) await this.page.getByTestId("experiment-repeats").fill(String(options.repeats));
    const start = this.page.getByTestId("start-experiment");
    await expect(start).toBeEnabled();
    await start.click();
    await this.page.waitForURL(/\/experiments\/[0-9a-f-]{36}$/);
    await expect(this.results).toBeVisible();
    return this.page.url().split("/").at(-1) ?? "";
  }

  get results(): Locator {
    return this.page.getByTestId("experiment-results");
  }

  get progress(): Locator {
    return this.page.getByTestId("experiment-progress");
  }

  get progressBar(): Locator {
    return this.progress.getByRole("progressbar");
  }

  /** Waits until every one of the `total` runs has ended and the page says so. */
  async waitUntilFinished(total: number, timeout = 120_000): Promise<void> {
    await expect(this.progress).toHaveAttribute("data-done", String(total), { timeout });
    await expect(this.page.getByTestId("experiment-progress-text")).toHaveText(`${total}/${total} runs · done`);
    await expect(this.results).toHaveAttribute("data-status", "ended");
  }

  /** The drawn curve lines (Recharts' SVG paths), one per arm. */
  get curveLines(): Locator {
    return this.page.locator('[data-testid="success-curves"] path.recharts-line-curve');
  }

  /** The final percentage the legend reports for an arm. */
  async finalPercent(arm: string): Promise<number> {
    const item = this.page.locator(`[data-testid="curve-legend-item"][data-arm="${arm}"]`);
    return Number(await item.getAttribute("data-final-percent"));
  }

  /**
   * The y pixel of the last dot of an arm's line (smaller = higher on screen),
   * read from the drawn SVG (Recharts names each dot after its line), so the
   * check is on the chart and not only on the data.
   */
  async lastDotY(arm: string): Promise<number> {
    const dots = this.page.locator(`[data-testid="success-curves"] circle.recharts-line-dot[name="${arm}"]`);
    await expect(dots.first()).toBeAttached();
    return Number(await dots.last().getAttribute("cy"));
  }

  /** A task's row in the grid. */
  taskRow(taskId: string): Locator {
    return this.page.locator(`[data-testid="task-row"][data-task-id="${taskId}"]`);
  }

  /** Opens "Compare" on a task's row and waits for the compare view with its runs. */
  async openCompare(taskId: string, runs: number): Promise<void> {
    await this.taskRow(taskId).getByTestId("grid-compare").click();
    await this.page.waitForURL(/\/compare\?runs=/);
    await expect(this.page.getByTestId("compare-run")).toHaveCount(runs);
  }

  /** Clicks an export link and resolves with the downloaded file's text. */
  async download(format: "csv" | "json" | "events" | "md" | "latex" | "svg" | "svg-cost"): Promise<{ name: string; text: string }> {
    const [download] = await Promise.all([this.page.waitForEvent("download"), this.page.getByTestId(`export-${format}`).click()]);
    const path = await download.path();
    const { readFile } = await import("node:fs/promises");
    return { name: download.suggestedFilename(), text: await readFile(path, "utf8") };
  }
}
