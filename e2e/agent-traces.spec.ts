import fs from "node:fs";
import path from "node:path";
import { expect, expectAccessible, test } from "./fixtures";

/**
 * Reflexion for an agent that lives elsewhere: from the header, drop the docs' OTLP example (an
 * outside agent's traces) and a file with a broken line, see the per-record problem, choose the
 * import, reflect on its failures with the trace's own score and the offline demo model, read the
 * reflections (they name what the trajectory shows) and the hand-back commands; a person's grade
 * decides instead under the person Evaluator; an imported trace opens as a read-only run.
 */

const EXAMPLE = path.resolve("docs/examples/agent-traces.otlp.jsonl");

test("agent traces: import an OTLP file, reflect on its failures, hand the lessons back", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto("/");
  await page.getByTestId("nav-traces").click();
  await page.waitForURL(/\/traces/);

  const content = fs.readFileSync(EXAMPLE);
  await page.getByTestId("trace-upload").setInputFiles({ name: "agent-traces.otlp.jsonl", mimeType: "application/json", buffer: content });
  const result = page.getByTestId("trace-import-result").filter({ hasText: "agent-traces.otlp.jsonl" });
  await expect(result).toContainText(/\d+ traces? \(OTLP\)/);
  await expect(page.getByTestId("selected-import")).toContainText(/not passed/);

  // A broken line is a per-record problem; the rest of the file is imported.
  const broken = Buffer.concat([content, Buffer.from("{ this is not json\n")]);
  await page.getByTestId("trace-upload").setInputFiles({ name: "broken.jsonl", mimeType: "application/json", buffer: broken });
  const brokenResult = page.getByTestId("trace-import-result").filter({ hasText: "broken.jsonl" });
  await expect(brokenResult).toContainText(/could not be read/);
  await brokenResult.locator("summary").click();
  await expect(brokenResult).toContainText(/line \d+/);

  // Choose the first import again and reflect on its failures with the trace's own score.
  await page.getByTestId("trace-imports").getByRole("button", { name: /agent-traces\.otlp\.jsonl/ }).click();
  await expect(page.getByTestId("reflect-panel")).toBeVisible();
  await expect(page.getByTestId("reflect-panel")).toContainText("scripted stand-in");
  await page.getByTestId("reflect-store").fill("e2e-agent");
  await page.getByTestId("reflect-run").click();
  const outcomes = page.getByTestId("reflect-outcome");
  await expect(page.getByTestId("reflect-result")).toContainText(/new reflections? stored in e2e-agent/);
  await expect(outcomes.filter({ hasText: /^fail/ }).first().getByTestId("reflect-text")).toContainText(/Next time/);
  await expect(page.getByTestId("hand-back")).toContainText("/api/memory-stores/e2e-agent/reflections?format=text");
  await expectAccessible(page, "agent traces, after reflecting");

  // The reflections are there for the agent to read.
  const text = await page.request.get("/api/memory-stores/e2e-agent/reflections?format=text");
  expect(text.ok()).toBe(true);
  expect(await text.text()).toMatch(/Next time/);

  // Asking again finds them: nothing new is written.
  await page.getByTestId("reflect-run").click();
  await expect(page.getByTestId("reflect-result")).toContainText(/0 new reflections/);

  // A person decides under the person Evaluator; the button waits for a grade.
  await page.getByTestId("evaluator-person").check();
  await expect(page.getByTestId("reflect-run")).toBeDisabled();
  const firstRow = page.getByTestId("person-grades").locator("tbody tr").first();
  await firstRow.getByTestId("grade-fail").check();
  await firstRow.getByRole("textbox").fill("it answered before checking the second hop");
  await page.getByTestId("reflect-store").fill("e2e-person");
  await expectAccessible(page, "agent traces, person grades");
  await page.getByTestId("reflect-run").click();
  await expect(page.getByTestId("reflect-result")).toContainText(/graded fail by a person/);

  // An imported trace opens as a run, labelled as an imported trace and read-only.
  await outcomes.first().getByRole("link").first().click();
  await page.waitForURL(/\/runs\//);
  await expect(page.getByText(/Imported trace/).first()).toBeVisible();
  // The lesson written on it is listed in the memory panel, with where it came from.
  await expect(page.getByTestId("stored-lessons")).toContainText(/Lessons written on this trace · [1-9]/);
  await expect(page.getByTestId("stored-lesson").first()).toContainText("scripted stand-in");
  // A step's LLM call is the outside agent's, as the trace recorded it: no invented settings.
  await page.locator('[data-testid="node-thought"]').first().click();
  await expect(page.getByTestId("inspector-model")).toBeVisible();
  await expect(page.getByText("recorded in the imported trace (the outside agent called the model; this app did not)")).toBeVisible();
});
