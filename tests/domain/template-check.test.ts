import { describe, expect, it } from "vitest";
import { MAX_TEMPLATE_BYTES, checkTemplateText, placeholderProblemMessage, templateTooLargeMessage } from "@/lib/domain/template-check";
import { CODE_ACTOR_TEMPLATE, CODE_REFLECTOR_TEMPLATE } from "@/lib/environments/code/prompts";
import { householdActorTemplate } from "@/lib/environments/household";
import { openActorTemplate } from "@/lib/environments/open";
import { qaActorTemplate } from "@/lib/environments/qa/prompts";
import { templateRulesFor } from "@/lib/server/template-rules";

const qaRules = templateRulesFor("qa", "actor")!;

describe("checkTemplateText: braced names the engine would leave as literal text", () => {
  it("reports {__proto__}, { memory } and {memory.text} as unknown, as written, with a suggestion", () => {
    for (const written of ["__proto__", " memory ", "memory.text", "\tquestion "]) {
      const problems = checkTemplateText(`${qaActorTemplate.text}\n{${written}}`, qaRules);
      expect(problems.unknown, written).toEqual([written]);
    }
    const spaced = checkTemplateText(`${qaActorTemplate.text}\n{ memory }`, qaRules);
    expect(placeholderProblemMessage(spaced, qaRules, "The Actor template")).toContain("did you mean {memory} for { memory }?");
  });

  it("leaves code and JSON in a template alone (`const { a } = b`, `{\"a\": 1}`, `{ }`)", () => {
    const text = `${qaActorTemplate.text}\nconst { answer } = result; JSON: {"a": 1}; empty { } and {x: 1}`;
    expect(checkTemplateText(text, qaRules).unknown).toEqual([]);
  });

  it("finds nothing to report in the built-in templates of every family", () => {
    const builtins: [string, "actor" | "reflector", string][] = [
      ["qa", "actor", qaActorTemplate.text],
      ["code", "actor", CODE_ACTOR_TEMPLATE.text],
      ["code", "reflector", CODE_REFLECTOR_TEMPLATE.text],
      ["household", "actor", householdActorTemplate.text],
      ["open", "actor", openActorTemplate.text],
    ];
    for (const [family, role, text] of builtins) {
      expect(checkTemplateText(text, templateRulesFor(family, role)), `${family} ${role}`).toEqual({ tooLarge: null, unknown: [], missing: [] });
    }
  });

  it("says the size in bytes when it is just over the limit, so the two figures differ", () => {
    const problems = checkTemplateText("x".repeat(MAX_TEMPLATE_BYTES + 30), null);
    expect(problems.tooLarge).toBe(MAX_TEMPLATE_BYTES + 30);
    expect(templateTooLargeMessage(MAX_TEMPLATE_BYTES + 30)).toMatch(/^the template is 65566 bytes; the limit is 64\.0 KB \(65536 bytes\)/);
  });
});
