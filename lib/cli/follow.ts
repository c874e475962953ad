import type { RunEvent } from "@/lib/domain/events";
import type { BranchId } from "@/lib/domain/ids";
import type { ServerContext } from "@/lib/server/app-context";
import { spendText, suggestedBudget } from "@/lib/domain/budget";
import { foldRun } from "@/lib/domain/fold-run";
import { formatEventLine } from "./format-event";
import { DEMO_MODEL_NOTE, describeModelId, isDemoModel } from "@/lib/domain/model-id";

/** How often `follow` re-reads the log for events other processes appended, in ms. */
const POLL_MS = 200;
/** A model call running longer than this (ms) is reported on stderr, and again every as long. */
const SLOW_CALL_REPORT_MS = 5_000;

/** Options of {@link follow}. */
export interface FollowOptions {
  json: boolean;
  /**
   * Starts the work to follow (drive the branch here, or resume it). When it
   * cannot drive the branch (another worker holds it), `follow` watches that
   * worker's progress through the store instead.
   */
  start: () => Promise<void>;
}

/**
 * Prints a branch's events (root by default) as they are appended — by this
 * process or any other on the same database — until the branch stops running
 * (paused, ended, error); resolves with the CLI's exit code: 0 when it ended or
 * stopped at a breakpoint, 1 when a provider failure paused it or it failed,
 * {@link EXIT_BUDGET_EXHAUSTED} (3) when its budget stopped it.
 * The closing lines give the status, tokens and the live and cached model calls
 * made on this branch. While a model call is in flight for more than 5 s, a
 * line on stderr says how long it has run.
 */
export async function follow(context: ServerContext, runId: string, branchId: string | null, options: FollowOptions): Promise<number> {
  const { json } = options;
  const run = await context.service.getRun(runId);
  const branch: BranchId = await context.service.branchOf(run, branchId);
  let lastSeq = 0;
  const print = (events: readonly RunEvent[]) => {
    for (const event of events) {
      if (event.seq <= lastSeq) continue; // a batch may arrive by the bus and by polling
      lastSeq = event.seq;
      if (json) process.stdout.write(`${JSON.stringify(event)}\n`);
      else {
        const line = formatEventLine(event);
        if (line) process.stdout.write(`${line}\n`);
      }
    }
  };
  const catchUp = async () => print((await context.service.events(runId, lastSeq, branch)).events);
  await catchUp();
  // Reads started by the bus or the poll are awaited before returning: the caller closes the
  // database next, and a read still in flight on a closed pool would fail the process.
  const inFlight = new Set<Promise<void>>();
  const background = () => {
    const read = catchUp().catch(() => undefined);
    inFlight.add(read);
    void read.finally(() => inFlight.delete(read));
  };
  // In-process appends arrive at once; appends of other processes by polling.
  const unsubscribe = context.bus.subscribe(run.id, background);
  const poll = setInterval(background, POLL_MS);
  let reportedAt = 0;
  const slowCalls = setInterval(() => {
    void context.service.liveness(run, branch).then(({ activeCall }) => {
      if (!activeCall) return;
      const ms = Date.now() - Date.parse(activeCall.startedAt);
      if (ms < SLOW_CALL_REPORT_MS || Date.now() - reportedAt < SLOW_CALL_REPORT_MS) return;
      reportedAt = Date.now();
      const where = activeCall.step === null ? `trial ${activeCall.trial}` : `trial ${activeCall.trial}, step ${activeCall.step}`;
      process.stderr.write(`… waiting on the ${activeCall.role === "actor" ? "Actor" : "Self-Reflection"} model (${where}) for ${Math.round(ms / 1000)} s\n`);
    }, () => undefined);
  }, 1_000);
  try {
    await options.start();
    await context.workers.untilSettled(branch);
  } finally {
    unsubscribe();
    clearInterval(poll);
    clearInterval(slowCalls);
    await Promise.allSettled([...inFlight]);
  }
  await catchUp();
  return report(context, run.id, branch, json);
}

/** Exit code of a run stopped by its budget (docs/cli.md): not a provider failure (1) nor bad input (2). */
export const EXIT_BUDGET_EXHAUSTED = 3;

/**
 * The models of the summary line: " (demo model: a scripted stand-in, not an LLM)" when every
 * role uses the demo model, " (Actor demo — …, Evaluator compatible:fake-model, Self-Reflection demo)"
 * when the roles differ, " (gpt-4o-mini)" for one real model.
 */
export function modelsText(models: { actor: { modelId: string }; reflector: { modelId: string }; evaluator?: { modelId: string } | null }): string {
  const roles: Array<[string, string]> = [["Actor", models.actor.modelId], ...(models.evaluator ? ([["Evaluator", models.evaluator.modelId]] as Array<[string, string]>) : []), ["Self-Reflection", models.reflector.modelId]];
  const distinct = new Set(roles.map(([, id]) => id));
  if (distinct.size === 1) return isDemoModel(models.actor.modelId) ? ` (demo model: ${DEMO_MODEL_NOTE})` : ` (${models.actor.modelId})`;
  return ` (${roles.map(([role, id]) => `${role} ${describeModelId(id)}`).join(", ")})`;
}

/** Prints the closing lines of a followed branch and returns the exit code. */
async function report(context: ServerContext, runId: string, branch: BranchId, json: boolean): Promise<number> {
  const run = await context.service.getRun(runId);
  const summary = await context.store.getBranchSummary(branch);
  const status = await context.service.status(run, { branchId: branch });
  const say = (line: string) => (json ? process.stderr : process.stdout).write(`${line}\n`);
  const models = modelsText(run.config.models);
  const where = branch === run.rootBranchId ? `Run ${run.id}` : `Run ${run.id}, branch ${branch}`;
  const outcome = summary?.outcome ? ` (${summary.outcome})` : "";
  say(`${where}: ${status}${outcome}; tokens in/out ${summary?.totals.inputTokens ?? 0}/${summary?.totals.outputTokens ?? 0}.`);
  say(`model calls${models}: ${summary?.own.liveCalls ?? 0} live, ${summary?.own.cachedCalls ?? 0} cached`);
  if (status === "budget-exhausted") {
    const state = foldRun((await context.service.events(run.id, 0, branch)).events);
    const next = suggestedBudget(state.config?.budget, state.spend, state.totals.unpricedCalls);
    const flag = next.usd !== undefined ? `--budget-usd ${next.usd}` : `--budget-tokens ${next.tokens}`;
    const branchFlag = branch === run.rootBranchId ? "" : ` --branch ${branch}`;
    say(`Budget exhausted: ${spendText(state.spend, state.totals.unpricedCalls)} spent; resume with \`npm run cli -- resume --run ${run.id}${branchFlag} ${flag}\`${state.totals.unpricedCalls > 0 ? " (the model has no price: a USD budget cannot stop it)" : ""}`);
    return EXIT_BUDGET_EXHAUSTED;
  }
  if (status === "paused") {
    const branchFlag = branch === run.rootBranchId ? "" : ` --branch ${branch}`;
    const command = `npm run cli -- resume --run ${run.id}${branchFlag}`;
    if (summary?.pause?.reason === "model-error") {
      // The provider's message (printed above; repeated here with --json) already says what to do: add only the command.
      if (json) say(`Paused: ${summary.pause.detail}`);
      say(`Resume with: ${command}`);
      return 1;
    }
    if (summary?.pause?.reason === "spending-limit") {
      // A person's or the lab's budget across runs: the detail names whose and how an admin raises it.
      say(`${summary.pause.detail} Resume with: ${command}`);
      return EXIT_BUDGET_EXHAUSTED;
    }
    say(`Paused (${summary?.pause?.detail ?? "paused"}). Continue with: ${command}`);
    return 0;
  }
  if (status === "error") say(`The run failed: ${summary?.error?.message ?? "unknown error"}`);
  return status === "ended" ? 0 : 1;
}
