import { InvalidArgumentError, type Command } from "commander";
import QRCode from "qrcode";
import { currentActor } from "@/lib/actors/actor-context";
import { CLASS_MINUTES, type ClassCreateResponse } from "@/lib/domain/class-session";
import { lanAddresses, serverPort } from "@/lib/server/class-lan-warning";
import { cliContext } from "./context";

/**
 * `cli class start --lesson <id> [--minutes N] [--base-url URL] [--json]`, `cli class list [--json]`
 * and `cli class end <id>`: class sessions (docs/guides/teaching.md "Teaching a class") from the
 * terminal — the same service as `/api/classes`. `start` prints the join code, the students' URL
 * with a terminal QR code of it, and the teacher's URL carrying the secret in its fragment
 * (`#teacher=…`: browsers never send a fragment to the server, so it is in no server log).
 */

function minutes(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < CLASS_MINUTES.min || parsed > CLASS_MINUTES.max) throw new InvalidArgumentError(`"${value}": a class lasts ${CLASS_MINUTES.min} to ${CLASS_MINUTES.max} minutes`);
  return parsed;
}

function baseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(`"${value}": give the server's address, e.g. http://192.168.1.20:3000`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new InvalidArgumentError(`"${value}": use an http:// or https:// address`);
  return url.origin;
}

/** Where students and the teacher open the class. */
export interface ClassUrls {
  student: string;
  teacher: string;
}

/**
 * The URLs `class start` prints. With `--base-url` (or `REFLEXION_PUBLIC_URL`, shared mode) both
 * use it. Otherwise (class LAN mode, `npm run class`) students use this machine's first LAN
 * address and the teacher loopback, on `PORT` (default 3000): in LAN mode the teacher's pages open
 * only on the laptop itself.
 */
export function classUrls(created: Pick<ClassCreateResponse, "joinPath" | "teacherSecret"> & { classId: string }, options: { baseUrl?: string; env: Record<string, string | undefined>; lan?: Array<{ address: string }> }): ClassUrls {
  const fixed = options.baseUrl ?? (options.env.REFLEXION_PUBLIC_URL?.trim() ? baseUrl(options.env.REFLEXION_PUBLIC_URL.trim()) : undefined);
  const port = serverPort([], options.env);
  const studentBase = fixed ?? `http://${(options.lan ?? lanAddresses())[0]?.address ?? "127.0.0.1"}:${port}`;
  const teacherBase = fixed ?? `http://127.0.0.1:${port}`;
  return { student: `${studentBase}${created.joinPath}`, teacher: `${teacherBase}/classes/${encodeURIComponent(created.classId)}#teacher=${encodeURIComponent(created.teacherSecret)}` };
}

/** Registers `class start`, `class list` and `class end`. */
export function registerClassCommands(program: Command): void {
  const group = program.command("class").description("Teach a lesson to a class: students join from their phones with a code (docs/guides/teaching.md, \"Teaching a class\").");

  group
    .command("start")
    .description("Start a class for a lesson: prints the join code, the students' URL with a QR code, and the teacher's URL (keep it private: it carries the teacher secret).")
    .requiredOption("--lesson <id>", "the lesson (its id, e.g. why-reflexion-qa; see /lessons)")
    .option("--minutes <n>", `how long the class stays open (${CLASS_MINUTES.min}-${CLASS_MINUTES.max}, default ${CLASS_MINUTES.default})`, minutes)
    .option("--base-url <url>", "the address students reach the server at (default: REFLEXION_PUBLIC_URL, else this machine's LAN address and PORT or 3000, as `npm run class` serves)", baseUrl)
    .option("--json", "print { class, teacherSecret, joinPath, studentUrl, teacherUrl } as JSON")
    .action(async (options: { lesson: string; minutes?: number; baseUrl?: string; json?: boolean }) => {
      const context = cliContext();
      try {
        const created = await context.classes.create({ lessonId: options.lesson, minutes: options.minutes ?? CLASS_MINUTES.default }, currentActor()?.userId ?? null);
        // The lesson's run is made here when no earlier one can be reused: play it now (the demo model takes seconds).
        const run = await context.service.getRun(created.class.runId);
        const { events } = await context.service.events(run.id);
        if (!events.some((event) => event.type === "run-end")) await context.workers.drive(run.id, run.rootBranchId);
        const urls = classUrls({ ...created, classId: created.class.id }, { baseUrl: options.baseUrl, env: process.env });
        if (options.json) {
          process.stdout.write(`${JSON.stringify({ ...created, studentUrl: urls.student, teacherUrl: urls.teacher }, null, 2)}\n`);
          return;
        }
        const qr = await QRCode.toString(urls.student, { type: "terminal", small: true });
        process.stdout.write(
          [
            `Class ${created.class.id}: "${created.class.lesson.title}", open until ${created.class.endsAt}.`,
            "",
            `  Join code:   ${created.class.code}`,
            `  Students:    ${urls.student}`,
            "",
            qr.trimEnd(),
            "",
            `  Teacher:     ${urls.teacher}`,
            "",
            "Open the teacher link on this computer (it carries the teacher secret: do not project or share it).",
            "End the class with `npm run cli -- class end " + created.class.id + "`.",
            "",
          ].join("\n"),
        );
      } finally {
        await context.close();
      }
    });

  group
    .command("list")
    .description("List classes, newest first: id, join code, status, students, lesson, until when.")
    .option("--json", "print { classes } as JSON")
    .action(async (options: { json?: boolean }) => {
      const context = cliContext();
      try {
        const { classes } = await context.classes.list();
        if (options.json) {
          process.stdout.write(`${JSON.stringify({ classes }, null, 2)}\n`);
          return;
        }
        if (classes.length === 0) {
          process.stderr.write("No classes yet. Start one with `npm run cli -- class start --lesson why-reflexion-qa`.\n");
          return;
        }
        for (const entry of classes) process.stdout.write(`${entry.id}\t${entry.code}\t${entry.status}\t${entry.students} student${entry.students === 1 ? "" : "s"}\t${entry.lessonId}\tuntil ${entry.endsAt}\n`);
      } finally {
        await context.close();
      }
    });

  group
    .command("end")
    .description("End a class: students can no longer answer or write; everything stays readable on the class page.")
    .argument("<id>", "the class id (cli class list)")
    .option("--json", "print the teacher's view of the ended class as JSON")
    .action(async (id: string, options: { json?: boolean }) => {
      const context = cliContext();
      try {
        const view = await context.classes.end(id, { userId: currentActor()?.userId ?? null });
        if (options.json) process.stdout.write(`${JSON.stringify(view, null, 2)}\n`);
        else process.stderr.write(`Class ${view.id} (${view.code}) has ended: ${view.students.length} student${view.students.length === 1 ? "" : "s"}.\n`);
      } finally {
        await context.close();
      }
    });
}
