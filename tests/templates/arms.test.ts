import { afterEach, describe, expect, it } from "vitest";
import { armWithVersionReferences, templateChoiceOf } from "@/lib/cli/template-commands";
import { qaReflectorTemplate } from "@/lib/environments/qa/prompts";
import type { ServerContext } from "@/lib/server/app-context";
import { demoContext } from "./helpers";

let context: ServerContext | null = null;
afterEach(async () => {
  await context?.workers.stop();
  context = null;
});

describe("template versions on experiment arms and `cli run --template`", () => {
  it("--arms-file templates: a value without whitespace is a version reference, any other value stays text", () => {
    expect(armWithVersionReferences({ label: "a", strategy: "reflexion", modelId: "demo", templates: { reflector: "qa/reflect@candidate", actor: "Answer {question}{scratchpad}" } })).toEqual({
      label: "a",
      strategy: "reflexion",
      modelId: "demo",
      templates: { actor: "Answer {question}{scratchpad}" },
      templateVersions: { reflector: "qa/reflect@candidate" },
    });
    // An explicit templateVersions entry wins over a reference in templates.
    expect(armWithVersionReferences({ label: "b", strategy: "reflexion", modelId: "demo", templates: { reflector: "qa/reflect@v1" }, templateVersions: { reflector: "qa/reflect@v2" } }).templateVersions).toEqual({ reflector: "qa/reflect@v2" });
    expect(templateChoiceOf(["reflector=qa/reflect@candidate", "actor=tv-0123456789abcdef"])).toEqual({ reflector: "qa/reflect@candidate", actor: "tv-0123456789abcdef" });
    expect(() => templateChoiceOf(["judge=x"])).toThrow(/role actor, reflector or value/);
  });

  it("an experiment pins arm labels to version ids when it starts, so moving a label later changes none of its runs", async () => {
    context = demoContext().context;
    const candidate = await context.templates.saveVersion("qa/reflect", { text: `MARKER\n${qaReflectorTemplate.text}`, message: "candidate" });
    await context.templates.moveLabel("qa/reflect", "candidate", candidate.version.id);
    const record = await context.experiments.start(
      {
        name: "labels",
        environment: "qa",
        taskSet: "builtin",
        taskIds: ["qa-builtin-01", "qa-builtin-02"],
        arms: [armWithVersionReferences({ label: "candidate", strategy: "reflexion", modelId: "demo", templates: { reflector: "qa/reflect@candidate" } })],
        maxTrials: 2,
      },
      { start: false },
    );
    expect(record.definition.arms[0]!.templateVersions).toEqual({ reflector: candidate.version.id });
    await context.templates.moveLabel("qa/reflect", "candidate", "qa/reflect@v1");
    for (const runId of await context.experiments.runIds(record.id)) {
      const start = (await context.service.events(runId)).events[0]!;
      expect(start.type === "run-start" && start.data.config.templates.reflector.versionId).toBe(candidate.version.id);
    }
    await expect(
      context.experiments.start({ name: "bad", environment: "qa", taskSet: "builtin", taskIds: ["qa-builtin-01"], arms: [{ label: "x", strategy: "reflexion", modelId: "demo", templateVersions: { reflector: "qa/reflect@nope" } }] }),
    ).rejects.toThrow(/no version "nope"/);
  });
});
