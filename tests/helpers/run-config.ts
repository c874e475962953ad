import { runConfigSchema, type RunConfig } from "@/lib/domain/config";

/** A valid RunConfig for storage and engine tests; override any field. */
export function makeRunConfig(overrides: Partial<RunConfig> = {}): RunConfig {
  return runConfigSchema.parse({
    environment: "qa",
    taskSetName: "test",
    taskId: "t1",
    task: { id: "t1", question: "Q?", answer: "A", paragraphs: [], supportingTitles: [] },
    strategy: "reflexion",
    models: { actor: { modelId: "demo" }, reflector: { modelId: "demo" } },
    templates: {
      actor: { id: "test/actor", version: 1, text: "{memory}Question: {question}{scratchpad}" },
      reflector: { id: "test/reflect", version: 1, text: "Question: {question}{scratchpad}\n{feedback}\nReflection:" },
    },
    ...overrides,
  });
}
