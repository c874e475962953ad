import { describe, expect, it } from "vitest";
import type { EnvironmentId } from "@/lib/domain/config";
import type { EnvironmentFamily } from "@/lib/domain/environment";
import { templateVariableNames } from "@/lib/engine/prompts";
import { supportedStrategiesOf } from "@/lib/engine/strategies";
import { builtinCodeTasks } from "@/lib/environments/code";
import { availableEnvironments, environmentEntry } from "@/lib/environments/registry";

/**
 * `templateVariableNames`: the `{name}`s the engine fills in each family's
 * templates (shown in the Steer tab, which warns about any other name). Every
 * placeholder of every template a family ships must be among them: this also
 * catches a typo in a built-in template.
 */

const PLACEHOLDER = /\{([A-Za-z][A-Za-z0-9_]*)\}/g;
const placeholders = (text: string) => [...new Set([...text.matchAll(PLACEHOLDER)].map((match) => match[1]!))];

function namesOf(id: EnvironmentId) {
  const entry = environmentEntry(id);
  return templateVariableNames(entry.family, entry.family.parseTask(entry.builtinTasks[0]));
}

/** The family's default templates and those of each strategy it supports. */
function shippedTemplates(family: EnvironmentFamily<unknown>) {
  const sets = [{ label: "default", ...family.defaultTemplates }];
  for (const strategy of supportedStrategiesOf(family)) {
    if (family.templatesFor) sets.push({ label: strategy, ...family.templatesFor(strategy) });
  }
  return sets;
}

describe("templateVariableNames", () => {
  it("QA: the question, the examples, memory and scratchpad; the reflector gets feedback instead of memory", () => {
    const names = namesOf("qa");
    expect(names.actor).toEqual(expect.arrayContaining(["question", "examples", "reflectionExamples", "memory", "scratchpad", "context"]));
    expect(names.reflector).toEqual(expect.arrayContaining(["question", "examples", "scratchpad", "feedback"]));
    expect(names.actor).not.toContain("feedback");
    expect(names.reflector).not.toContain("memory");
  });

  it("code: the signature, the language and the previous attempt, never the hidden tests", () => {
    const names = namesOf("code");
    expect(names.actor).toEqual(
      expect.arrayContaining(["signature", "entry_point", "language_name", "fence", "assert_form", "examples", "previous_attempt", "memory", "scratchpad"]),
    );
    expect(names.reflector).toEqual(expect.arrayContaining(["signature", "language_name", "reflection_examples", "scratchpad", "feedback"]));
    for (const name of [...names.actor, ...names.reflector]) {
      expect(name.toLowerCase()).not.toMatch(/hidden|solution|reference|setup/);
    }
    expect(names.actor).not.toContain("hiddenTests");
    expect(names.actor).not.toContain("hidden_tests");
  });

  it("code: no variable the engine fills carries the hidden tests or the reference solution", () => {
    const { family } = environmentEntry("code");
    for (const task of builtinCodeTasks) {
      const values = [
        ...Object.values(family.promptVariables(task, "reflexion")),
        ...Object.values(family.actorVariables?.(task, { trial: 1, step: 1, strategy: "reflexion", steps: [], earlierTrials: [] }) ?? {}),
        ...Object.values(family.actorVariables?.(task, { trial: 2, step: 1, strategy: "reflexion", steps: [], earlierTrials: [[]] }) ?? {}),
      ];
      for (const value of values) {
        expect(value).not.toContain(task.hiddenTests.trim());
        if (task.referenceSolution) expect(value).not.toContain(task.referenceSolution.trim());
      }
    }
  });

  it("code: the names do not depend on the task's language", () => {
    const { family } = environmentEntry("code");
    const byLanguage = new Map<string, unknown>();
    for (const task of builtinCodeTasks) {
      if (!byLanguage.has(task.language)) byLanguage.set(task.language, templateVariableNames(family, task));
    }
    expect(byLanguage.size).toBeGreaterThan(1);
    for (const names of byLanguage.values()) expect(names).toEqual(namesOf("code"));
  });

  it("household: the task, the opening observation, the examples, memory and scratchpad", () => {
    const names = namesOf("household");
    expect(names.actor).toEqual(["examples", "initialObservation", "memory", "reflectionExamples", "scratchpad", "task"]);
    expect(names.reflector).toEqual(["examples", "feedback", "initialObservation", "reflectionExamples", "scratchpad", "task"]);
  });

  it("is sorted and without duplicates", () => {
    for (const id of availableEnvironments()) {
      const names = namesOf(id);
      for (const list of [names.actor, names.reflector]) expect(list).toEqual([...new Set(list)].sort());
    }
  });

  describe.each(availableEnvironments())("every placeholder of the %s family's shipped templates", (id) => {
    it("is a name the engine fills", () => {
      const { family } = environmentEntry(id);
      const names = namesOf(id);
      for (const { label, actor, reflector } of shippedTemplates(family)) {
        expect(placeholders(actor.text)).toContain("scratchpad");
        expect(placeholders(reflector.text).length).toBeGreaterThan(0);
        expect({ label, role: "actor", unknown: placeholders(actor.text).filter((name) => !names.actor.includes(name)) }).toEqual({ label, role: "actor", unknown: [] });
        expect({ label, role: "reflector", unknown: placeholders(reflector.text).filter((name) => !names.reflector.includes(name)) }).toEqual({
          label,
          role: "reflector",
          unknown: [],
        });
      }
    });
  });
});
