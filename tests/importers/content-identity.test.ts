import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { contentSha256, PaperImportService } from "@/lib/importers/import-service";
import { createServerContext } from "@/lib/server/app-context";

/**
 * An import is identified by its content (SHA-256), not its path: the same
 * bytes by another path or as an upload return the existing experiment; other
 * bytes at a known path are a new import; only content equal to a shipped log
 * is `verified`. Fixtures: a tiny data root written here.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "import-identity-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const BLOCK = (question: string, verdict: "CORRECT" | "INCORRECT") =>
  [
    `Question: ${question}`,
    "Thought 1: I need to search it.",
    "Action 1: Search[It]",
    "Observation 1: It is a thing.",
    "Thought 2: So the answer is yes.",
    "Action 2: Finish[yes]",
    `Observation 2: Answer is ${verdict}`,
    `Correct answer: ${verdict === "CORRECT" ? "yes" : "no"}`,
    "",
  ].join("\n");
const TRIAL = (n: number, correct: number, body: string) =>
  ["", "########################################", `BEGIN TRIAL ${n}`, `Trial summary: Correct: ${correct}, Incorrect: 0, Halted: 0`, "#######################################", "------------- BEGIN CORRECT AGENTS -------------", "", body].join("\n");
const LOG = `${TRIAL(1, 1, BLOCK("Is it?", "CORRECT"))}${TRIAL(2, 1, BLOCK("Is it?", "CORRECT"))}`;
const RELATIVE = "reflexion/hotpotqa_runs/root/ReAct/base/100_questions_2_trials.txt";

function dataRoot(name: string, content = LOG): string {
  const root = path.join(dir, name);
  fs.mkdirSync(path.dirname(path.join(root, RELATIVE)), { recursive: true });
  fs.writeFileSync(path.join(root, RELATIVE), content);
  return root;
}

function setup(root: string | null) {
  const store = new MemoryRunStore();
  const context = createServerContext({ store, startWorkers: false, env: {} });
  return { store, service: new PaperImportService(store, context.experiments, { dataRoot: root }) };
}

describe("import identity by content", () => {
  it("the same content by a symlinked path or as an upload returns the first experiment, with the log's warnings", async () => {
    const root = dataRoot("same");
    const link = path.join(dir, "link-to-same");
    fs.symlinkSync(root, link);
    const { service, store } = setup(root);
    const { imports: [first] } = await service.importPath(path.join(root, RELATIVE));
    expect(first).toMatchObject({ source: RELATIVE, alreadyImported: false, trials: 2 });
    expect(first!.warnings.length).toBeGreaterThan(0);
    const [experiment] = await store.experiments.listExperiments(10);
    expect(experiment!.provenance).toMatchObject({ contentSha256: contentSha256([{ name: RELATIVE, content: LOG }]), verified: true });
    const [run] = await store.listRuns(1);
    expect(run!.config.provenance).toMatchObject({ verified: true, contentSha256: experiment!.provenance!.contentSha256 });

    const { imports: [viaLink] } = await service.importPath(path.join(link, RELATIVE));
    const [uploaded] = await service.importUploads([{ name: "renamed.txt", content: LOG }]);
    for (const again of [viaLink, uploaded]) expect(again).toMatchObject({ experimentId: first!.experimentId, alreadyImported: true, warnings: first!.warnings });
    expect(await store.experiments.listExperiments(10)).toHaveLength(1);
    expect((await service.list()).files[0]?.importedExperimentId).toBe(first!.experimentId);
  });

  it("changed content at a known path is a new import that says it differs; the list points at the new one", async () => {
    const root = dataRoot("changed");
    const { service, store } = setup(root);
    const { imports: [first] } = await service.importPath(path.join(root, RELATIVE));
    fs.writeFileSync(path.join(root, RELATIVE), LOG.replace("It is a thing.", "It is another thing."));
    const { imports: [second] } = await service.importPath(path.join(root, RELATIVE));
    expect(second).toMatchObject({ alreadyImported: false, source: RELATIVE });
    expect(second!.experimentId).not.toBe(first!.experimentId);
    expect(second!.warnings[0]).toMatch(new RegExp(`differs from its earlier import \\(experiment ${first!.experimentId}\\)`));
    expect(await store.experiments.listExperiments(10)).toHaveLength(2);
    expect((await service.list()).files[0]?.importedExperimentId).toBe(second!.experimentId);
  });

  it("an edited upload is not verified and says which published log it differs from; an unknown name has none to compare with", async () => {
    const root = dataRoot("edited");
    const { service, store } = setup(root);
    const [edited] = await service.importUploads([{ name: "100_questions_2_trials.txt", content: LOG.replace("Finish[yes]", "Finish[no]") }]);
    const [unknown] = await service.importUploads([{ name: "mine.txt", content: LOG.replace("It is a thing.", "Mine.") }]);
    const experiments = await store.experiments.listExperiments(10);
    const byId = (id: string) => experiments.find((experiment) => experiment.id === id)!.provenance!;
    expect(byId(edited!.experimentId).verified).toBe(false);
    expect(byId(edited!.experimentId).notes).toContain(`Uploaded copy: its content differs from the published log ${RELATIVE}, so it may have been edited.`);
    expect(byId(unknown!.experimentId).verified).toBe(false);
    expect(byId(unknown!.experimentId).notes.join(" ")).toMatch(/no published log to compare with/);
    // The runs carry the same caveat (the run page reads the run's provenance).
    const runs = await store.listRuns(10);
    expect(runs.every((run) => run.config.provenance?.verified === false)).toBe(true);
  });

  it("a log cut cleanly before a trial warns that the file name says more trials than it holds", async () => {
    const { service } = setup(dataRoot("cut"));
    const [cut] = await service.importUploads([{ name: "100_questions_2_trials.txt", content: TRIAL(1, 1, BLOCK("Is it?", "CORRECT")) }]);
    expect(cut!.warnings).toContain("the file name says 2 trials; it holds 1.");
  });

  it("a log outside the folder layout is recognised by its content (cli import-logs /tmp/x/…)", async () => {
    const outside = path.join(dir, "x", "100_questions_2_trials.txt");
    fs.mkdirSync(path.dirname(outside), { recursive: true });
    fs.writeFileSync(outside, LOG);
    const { service } = setup(null);
    const { imports: [result] } = await service.importPath(outside);
    expect(result).toMatchObject({ family: "qa", label: "ReAct only", trials: 2, alreadyImported: false });
  });

  it("an ALFWorld run is identified by its trial files in trial order, whatever their names or upload order", () => {
    const trial = (n: number) => ({ name: `/a/env_results_trial_${n}.json`, content: JSON.stringify([{ name: "env_0", memory: [], is_success: n === 1 }]) });
    const uploaded = [trial(1), trial(0)].map((file) => ({ ...file, name: path.basename(file.name) }));
    expect(contentSha256(uploaded)).toBe(contentSha256([trial(0), trial(1)]));
    expect(contentSha256([trial(0)])).not.toBe(contentSha256([trial(0), trial(1)]));
  });
});
