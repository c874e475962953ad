import { defaultProperties } from "@/lib/environments/household/catalogue";
import { parseAction } from "@/lib/environments/household/commands";
import { HouseholdEpisode } from "@/lib/environments/household/episode";
import { parseHouseholdTask, typeOfName, type HouseholdTask, type HouseholdTaskType } from "@/lib/environments/household/task";

/** A room with one of everything the commands need (not a plausible room; a test bench). */
export const STUDIO: Record<string, { openable?: boolean; opened?: boolean; items?: string[] }> = {
  "cabinet 1": { openable: true, items: ["cup 1"] },
  "cabinet 2": {},
  "countertop 1": { items: ["apple 1", "knife 1", "mug 1"] },
  "desk 1": { items: ["desklamp 1", "pen 1"] },
  "diningtable 1": { items: ["creditcard 1"] },
  "drawer 1": { openable: true, opened: true, items: ["spoon 1"] },
  "fridge 1": { openable: true, items: ["egg 1"] },
  "microwave 1": { openable: true },
  "shelf 1": { items: ["houseplant 1", "pencil 1", "pencil 2"] },
  "sinkbasin 1": {},
  "stoveburner 1": { items: ["pan 1"] },
};

/** A task over {@link STUDIO} (or another room) with the given type, sentence and goal. */
export function studioTask(
  taskType: HouseholdTaskType,
  description: string,
  goal: { object: string; receptacle?: string | null; lamp?: string | null },
  room = STUDIO,
): HouseholdTask {
  return parseHouseholdTask({
    id: `test-${taskType}`,
    taskType,
    description,
    goal,
    scene: {
      receptacles: Object.entries(room).map(([name, spot]) => ({ name, openable: spot.openable ?? false, opened: spot.opened ?? false })),
      objects: Object.entries(room).flatMap(([name, spot]) =>
        (spot.items ?? []).map((item) => ({ name: item, in: name, properties: defaultProperties(typeOfName(item)) })),
      ),
    },
  });
}

/** A put task over the studio: a pencil on the desk. */
export const PUT_PENCIL_ON_DESK = studioTask("pick_and_place_simple", "put a pencil in desk.", { object: "pencil", receptacle: "desk" });

/** Plays `actions` in a fresh episode and returns the episode and the observations. */
export function play(task: HouseholdTask, actions: readonly string[]): { episode: HouseholdEpisode; observations: string[] } {
  const episode = new HouseholdEpisode(task);
  const observations = actions.map((action) => episode.step(parseAction(action)).observation);
  return { episode, observations };
}

/** Plays `actions` and returns the last observation. */
export function lastObservation(task: HouseholdTask, actions: readonly string[]): string {
  return play(task, actions).observations.at(-1) ?? "";
}
