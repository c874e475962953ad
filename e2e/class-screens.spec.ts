import { mkdirSync } from "node:fs";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, expectAccessible, test } from "./fixtures";

/**
 * The class screens (teacher console, projector, student phone page) at a phone (390×844), a
 * projector (1280×720) and a laptop (1440×900), light and dark: no horizontal scroll, no card cut
 * off by an inner scroll box, every text on the projector at least 16 px, and axe-core finds no
 * WCAG 2.1 A/AA violation. Two classes set up through the API: one at a revealed prediction (the
 * histogram), one at the practice step with reflections run as forks. The teacher opens the
 * CLI-style link `/classes/<id>#teacher=<secret>`, which must leave the address bar without the
 * secret. Screenshots go to test-results/screens/class-*.png.
 */

const VIEWPORTS = [
  { name: "phone", width: 390, height: 844 },
  { name: "projector", width: 1280, height: 720 },
  { name: "laptop", width: 1440, height: 900 },
] as const;
const THEMES = ["light", "dark"] as const;
const SHOTS = "test-results/screens";
const LESSON = "why-reflexion-qa";
const PREDICTION_STEP = 2;
const PRACTICE_STEP = 4;
/** Cards whose whole content must be visible (never clipped by a scroll box smaller than the window). */
const CARDS = ["class-join-panel", "class-question", "class-histogram", "class-reflection", "class-fork", "class-score", "student-question", "student-reflection", "student-fork-result"];

interface SetUpClass {
  id: string;
  secret: string;
  student: { token: string; nickname: string };
}

async function ok<T>(response: Awaited<ReturnType<APIRequestContext["post"]>>, what: string): Promise<T> {
  expect(response.ok(), `${what}: ${response.status()} ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

/** A class of the QA lesson with one student ("Ada <n>"), moved to `step`. */
async function startClass(request: APIRequestContext, nickname: string, step: number): Promise<SetUpClass> {
  const created = await ok<{ class: { id: string; code: string }; teacherSecret: string }>(await request.post("/api/classes", { data: { lessonId: LESSON, minutes: 30 } }), "start a class");
  const joined = await ok<{ studentToken: string; nickname: string }>(await request.post("/api/classes/join", { data: { code: created.class.code, nickname } }), "join");
  const teacher = { "x-class-teacher": created.teacherSecret };
  await ok(await request.post(`/api/classes/${created.class.id}/step`, { headers: teacher, data: { step } }), "step");
  return { id: created.class.id, secret: created.teacherSecret, student: { token: joined.studentToken, nickname: joined.nickname } };
}

let revealed: SetUpClass;
let practised: SetUpClass;

test.beforeAll(async ({ request }) => {
  test.setTimeout(180_000);
  const run = await ok<{ runId: string }>(await request.post(`/api/lessons/${LESSON}/run`), "the lesson's run");
  await expect.poll(async () => ((await (await request.get(`/api/runs/${run.runId}`)).json()) as { run: { status: string } }).run.status, { timeout: 60_000 }).toBe("ended");

  revealed = await startClass(request, "Ada Lovelace", PREDICTION_STEP);
  const student = { "x-class-student": revealed.student.token };
  const view = await ok<{ step: { question: { choices: Array<{ id: string }> } } }>(await request.get(`/api/classes/${revealed.id}/student`, { headers: student }), "student view");
  await ok(await request.post(`/api/classes/${revealed.id}/answers`, { headers: student, data: { step: PREDICTION_STEP, choiceId: view.step.question.choices[0]!.id } }), "answer");
  await ok(await request.post(`/api/classes/${revealed.id}/reveal`, { headers: { "x-class-teacher": revealed.secret }, data: { step: PREDICTION_STEP } }), "reveal");

  practised = await startClass(request, "Grace Hopper", PRACTICE_STEP);
  await ok(
    await request.post(`/api/classes/${practised.id}/reflections`, {
      headers: { "x-class-student": practised.student.token },
      data: { step: PRACTICE_STEP, text: "I answered with the town. Next time I will search Dunmere and answer with the river that runs through it." },
    }),
    "reflection",
  );
  const teacherView = await ok<{ current: { reflections: Array<{ id: string }> } }>(await request.get(`/api/classes/${practised.id}`, { headers: { "x-class-teacher": practised.secret } }), "teacher view");
  await ok(
    await request.post(`/api/classes/${practised.id}/forks`, { headers: { "x-class-teacher": practised.secret }, data: { step: PRACTICE_STEP, groupIds: teacherView.current.reflections.map((group) => group.id) } }),
    "forks",
  );
  await expect
    .poll(async () => ((await (await request.get(`/api/classes/${practised.id}`, { headers: { "x-class-teacher": practised.secret } })).json()) as { forks: Array<{ status: string }> }).forks.map((fork) => fork.status).join(), { timeout: 90_000 })
    .toMatch(/^(succeeded|failed)$/);
});

async function noHorizontalScroll(page: Page, where: string) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth, `${where}: page wider than the window`).toBeLessThanOrEqual(innerWidth);
}

/** Every card on the page is whole: no scroll box smaller than the window clips it, and it does not scroll inside itself. */
async function cardsFit(page: Page, where: string) {
  const problems = await page.evaluate((ids) => {
    const found: string[] = [];
    for (const id of ids) {
      for (const card of Array.from(document.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`))) {
        const box = card.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) continue;
        if (card.scrollHeight > card.clientHeight + 1 || card.scrollWidth > card.clientWidth + 1) found.push(`${id} scrolls inside itself`);
        for (let parent = card.parentElement; parent; parent = parent.parentElement) {
          const style = getComputedStyle(parent);
          const clips = /(auto|scroll|hidden)/.test(style.overflowY) || /(auto|scroll|hidden)/.test(style.overflowX);
          if (!clips) continue;
          // A scroller as tall as the window is the page itself (the projector covers the chrome with one).
          if (parent.clientHeight >= window.innerHeight - 2) continue;
          if (box.height > parent.clientHeight + 1 || box.width > parent.clientWidth + 1) found.push(`${id} (${Math.round(box.height)} px) clipped by a ${parent.clientHeight} px scroll box`);
        }
      }
    }
    return found;
  }, CARDS);
  expect(problems, `${where}: cards cut off`).toEqual([]);
}

/** Every visible text on the projector is at least 16 px (SVG chart text included). */
async function projectorTextAtLeast16(page: Page, where: string) {
  const small = await page.evaluate(() => {
    const root = document.querySelector("[data-testid=class-projector]");
    if (!root) return ["no projector"];
    const found: string[] = [];
    for (const element of Array.from(root.querySelectorAll<Element>("*"))) {
      const ownText = Array.from(element.childNodes).some((node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? "").trim() !== "");
      if (!ownText) continue;
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const size = parseFloat(getComputedStyle(element).fontSize);
      if (size < 16) found.push(`${size}px: ${(element.textContent ?? "").trim().slice(0, 40)}`);
    }
    return found;
  });
  expect(small, `${where}: projector text under 16 px`).toEqual([]);
}

async function check(page: Page, where: string, shot: string, projector = false) {
  await page.waitForLoadState("networkidle");
  await noHorizontalScroll(page, where);
  await cardsFit(page, where);
  if (projector) await projectorTextAtLeast16(page, where);
  await expectAccessible(page, where);
  await page.screenshot({ path: `${SHOTS}/${shot}.png`, fullPage: true });
}

for (const viewport of VIEWPORTS) {
  for (const theme of THEMES) {
    test(`class screens at ${viewport.name} ${viewport.width}×${viewport.height}, ${theme}: console, projector and phone fit, projector text ≥ 16 px, axe passes`, async ({ page }) => {
      test.setTimeout(180_000);
      mkdirSync(SHOTS, { recursive: true });
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await page.emulateMedia({ colorScheme: theme });
      const at = `${theme}, ${viewport.width}×${viewport.height}`;

      for (const [name, entry] of [
        ["prediction", revealed],
        ["practice", practised],
      ] as const) {
        // The CLI's teacher link: the secret moves to localStorage and leaves the address bar.
        await page.goto(`/classes/${entry.id}#teacher=${entry.secret}`);
        await expect(page.getByTestId("class-console")).toBeVisible();
        expect(page.url()).not.toContain("teacher=");
        await expect(page.getByTestId(name === "prediction" ? "class-histogram" : "class-fork").first()).toBeVisible();
        await check(page, `console (${name}), ${at}`, `class-console-${name}-${viewport.name}-${theme}`);

        await page.getByTestId("class-projector-toggle").click();
        await expect(page.getByTestId("class-projector")).toBeVisible();
        await expect(page.getByTestId(name === "prediction" ? "class-histogram" : "class-fork").first()).toBeVisible();
        await expect(page.getByTestId("class-projector")).not.toContainText(entry.student.nickname);
        await check(page, `projector (${name}), ${at}`, `class-projector-${name}-${viewport.name}-${theme}`, true);

        await page.evaluate(
          ({ id, student }) => localStorage.setItem(`reflexion.class.student.${id}`, JSON.stringify(student)),
          { id: entry.id, student: entry.student },
        );
        await page.goto(`/class/${entry.id}`);
        await expect(page.getByTestId("student-class")).toBeVisible();
        await expect(page.getByTestId(name === "prediction" ? "student-reveal" : "student-fork-result")).toBeVisible();
        await check(page, `student (${name}), ${at}`, `class-student-${name}-${viewport.name}-${theme}`);
      }

      for (const path of ["/classes", "/join", "/join/NOPE99"]) {
        await page.goto(path);
        await check(page, `${path}, ${at}`, `class-page-${path.replace(/\W+/g, "-")}-${viewport.name}-${theme}`);
      }
    });
  }
}
