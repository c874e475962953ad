import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/domain/errors";
import { parseAction } from "@/lib/environments/household/commands";
import { HouseholdEpisode } from "@/lib/environments/household/episode";
import { evaluateHousehold } from "@/lib/environments/household/evaluator";
import { checkTranscript, compareObservation, runHouseholdConformance } from "@/lib/environments/household/conformance";
import { householdActorExamples, householdReflectionExamples } from "@/lib/environments/household/prompt-examples";
import { parseEntityList, parseTranscript, sceneFromTranscript } from "@/lib/environments/household/transcript";
import { HOUSEHOLD_TASK_TYPES } from "@/lib/environments/household/task";
import { reactAlfworldTranscripts, readReactAlfworld } from "./shared-data";

describe("conformance over ReAct's ALFWorld transcripts (react-alfworld.json)", () => {
  const report = runHouseholdConformance(readReactAlfworld());

  it("replays all 24 word for word, each ending with the goal met", () => {
    expect(report.results.filter((result) => !result.ok)).toEqual([]);
    expect({ passed: report.passed, failed: report.failed }).toEqual({ passed: 24, failed: 0 });
    expect(report.results.map((result) => result.name)).toEqual(Object.keys(reactAlfworldTranscripts()));
  });

  it("tolerates only the documented quirks, and reports them", () => {
    const noted = Object.fromEntries(report.results.filter((result) => result.notes).map((result) => [result.name, result.notes]));
    expect(noted).toEqual({
      react_put_0: [expect.stringContaining('tolerated list punctuation: expected "On the cabinet 1, you see a cloth 1, a soapbar 1, a soapbottle 1."')],
      act_put_0: [expect.stringContaining("tolerated list punctuation")],
      act_examine_0: ['ignored a line that answers no action: "OK. "'],
    });
  });

  it("rebuilds the scene the transcript reveals", () => {
    const transcripts = reactAlfworldTranscripts();
    const { task } = sceneFromTranscript(parseTranscript(transcripts.react_heat_1 ?? ""), "react_heat_1");
    expect(task).toMatchObject({ taskType: "pick_heat_then_place_in_recep", goal: { object: "apple", receptacle: "fridge", lamp: null } });
    expect(task.scene.receptacles).toHaveLength(29);
    expect(task.scene.receptacles.find((receptacle) => receptacle.name === "fridge 1")).toEqual({ name: "fridge 1", openable: true, opened: false });
    expect(task.scene.objects.find((object) => object.name === "apple 1")).toMatchObject({ in: "diningtable 1", properties: expect.arrayContaining(["pickupable", "heatable"]) });
    const examine = sceneFromTranscript(parseTranscript(transcripts.react_examine_0 ?? ""), "react_examine_0").task;
    expect(examine.scene.receptacles.find((receptacle) => receptacle.name === "drawer 1")?.openable).toBe(false);
    expect(examine.scene.objects.find((object) => object.name === "desklamp 1")).toMatchObject({ in: "sidetable 2", properties: ["toggleable"] });
  });

  it("reads every task type from the transcripts' task sentences", () => {
    const types = new Set(
      Object.entries(reactAlfworldTranscripts()).map(([name, text]) => sceneFromTranscript(parseTranscript(text), name).task.taskType),
    );
    expect([...types].sort()).toEqual([...HOUSEHOLD_TASK_TYPES].sort());
  });
});

describe("conformance catches differences", () => {
  const original = reactAlfworldTranscripts().react_clean_0 ?? "";

  it("a changed reply is reported at its step with both texts", () => {
    const edited = original.replace("You clean the lettuce 1 using the sinkbasin 1.", "You wash the lettuce 1 in the sinkbasin 1.");
    expect(checkTranscript("edited", edited)).toEqual({
      name: "edited",
      ok: false,
      firstDifference: {
        step: 10,
        action: "clean lettuce 1 with sinkbasin 1",
        expected: "You wash the lettuce 1 in the sinkbasin 1.",
        actual: "You clean the lettuce 1 using the sinkbasin 1.",
      },
    });
  });

  it("an action the world refuses is a difference", () => {
    const edited = original.replace("> clean lettuce 1 with sinkbasin 1", "> clean lettuce 1 with fridge 1");
    expect(checkTranscript("edited", edited).firstDifference).toMatchObject({ step: 10, actual: "Nothing happens." });
  });

  it("a transcript that ends without the goal fails at its end", () => {
    const cut = original.slice(0, original.indexOf("> put lettuce 1"));
    expect(checkTranscript("cut", cut).firstDifference).toMatchObject({ action: "(end of transcript)", expected: "the goal is met" });
  });

  it("an opening text out of ALFWorld's order is a difference at step 0", () => {
    const unsorted = original.replace("a cabinet 13, a cabinet 12,", "a cabinet 12, a cabinet 13,");
    expect(checkTranscript("room", unsorted).firstDifference).toMatchObject({ step: 0, action: "(start)" });
  });

  it("unreadable transcripts are failed results with an error", () => {
    expect(checkTranscript("bad", "Hello")).toMatchObject({ ok: false, error: expect.stringContaining("must start with") });
    const strange = original.replace("put a clean lettuce in diningtable.", "make me a sandwich.");
    expect(checkTranscript("bad", strange)).toMatchObject({ ok: false, error: expect.stringContaining("not an ALFWorld task sentence") });
  });

  it("runHouseholdConformance counts failures and rejects files that are not a JSON object", () => {
    expect(runHouseholdConformance(JSON.stringify({ a: original, b: 3 }))).toMatchObject({ passed: 1, failed: 1, results: [{ ok: true }, { name: "b", ok: false }] });
    for (const text of ["not json", "[]", "3"]) {
      let caught: unknown;
      try {
        runHouseholdConformance(text);
      } catch (error) {
        caught = error;
      }
      expect(isAppError(caught, "invalid-dataset")).toBe(true);
    }
  });
});

describe("compareObservation and lists", () => {
  it("is exact up to trailing whitespace, tolerating only a list's final 'and'", () => {
    expect(compareObservation("OK. ", "OK.")).toBe("exact");
    expect(compareObservation("On the x 1, you see a a 1, a b 1.", "On the x 1, you see a a 1, and a b 1.")).toBe("tolerated");
    expect(compareObservation("Nothing happens.", "OK.")).toBe("different");
    expect(compareObservation("On the x 1, you see a a 1.", "On the x 1, you see a b 1.")).toBe("different");
  });

  it("parseEntityList reads ALFWorld lists with or without the final and", () => {
    expect(parseEntityList("nothing")).toEqual([]);
    expect(parseEntityList("a cup 1, and a egg 1")).toEqual(["cup 1", "egg 1"]);
    expect(parseEntityList("a cloth 1, a soapbar 1, a soapbottle 1")).toEqual(["cloth 1", "soapbar 1", "soapbottle 1"]);
    expect(parseEntityList("a cup")).toBeNull();
  });
});

describe("our own prompt examples are real games of our world", () => {
  const actorExamples = HOUSEHOLD_TASK_TYPES.flatMap((taskType) => householdActorExamples[taskType].map((text, index) => [`${taskType} #${index + 1}`, taskType, text] as const));

  it.each(actorExamples)("%s replays word for word and meets the goal", (name, taskType, text) => {
    expect(checkTranscript(name, text)).toEqual({ name, ok: true });
    expect(sceneFromTranscript(parseTranscript(text), name).task.taskType).toBe(taskType);
  });

  it.each(householdReflectionExamples.map((example, index) => [index + 1, example] as const))(
    "reflection example %i replays word for word and fails as its feedback says",
    (_, example) => {
      const result = checkTranscript("reflection", example.trial);
      expect(result.firstDifference?.action).toBe("(end of transcript)");
      const parsed = parseTranscript(example.trial);
      const { task } = sceneFromTranscript(parsed, "reflection");
      const episode = new HouseholdEpisode(task);
      for (const step of parsed.steps) episode.step(parseAction(step.action));
      expect(evaluateHousehold(task, null, episode).feedback).toBe(example.feedback);
    },
  );
});
