import type { Actor } from "./actor";
import type { Annotation, AnnotationEvent } from "./annotations";
import type { RunEvent } from "./events";
import { AppError } from "./errors";

/**
 * Names in exports (docs/audit.md, "Stripping names"): `keep` (the default) exports who did what as
 * recorded; `strip` replaces every person with a stable pseudonym for that one export — `person 1`,
 * `person 2`, … in order of first appearance — so a bundle or trace can leave the lab without
 * saying who worked on it, while still showing that the same person made two edits.
 */
export type NamesMode = "keep" | "strip";

/** Kinds of actor that name a person (the others name a worker, lesson, importer or the CLI). */
const PERSON_KINDS = new Set<Actor["kind"]>(["person", "token", "local"]);

/**
 * One export's pseudonyms. A person is keyed by their account (`userId`) and, once seen, also by the
 * names they appeared under, so an annotation signed "alice" gets the same pseudonym as alice's edits.
 */
export class Pseudonyms {
  private readonly byKey = new Map<string, string>();
  private persons = 0;
  private tokens = 0;

  /** The pseudonym of the person known by any of `keys` (an account id, a name); a new one when none is known. */
  person(...keys: ReadonlyArray<string | null | undefined>): string {
    const known = keys.map((key) => (key ? this.byKey.get(key) : undefined)).find((found) => found !== undefined);
    const pseudonym = known ?? `person ${++this.persons}`;
    for (const key of keys) if (key) this.byKey.set(key, pseudonym);
    return pseudonym;
  }

  /** An actor with its person's name, id and account replaced (a token: `person N (token)`, id `token M`); other kinds keep their names, their account is replaced. */
  actor(actor: Actor): Actor {
    if (!PERSON_KINDS.has(actor.kind)) return { ...actor, userId: actor.userId === null ? null : this.person(actor.userId) };
    const accountKey = actor.userId ?? (actor.kind === "token" ? null : actor.id);
    const bareName = actor.kind === "token" ? actor.name.replace(/ \(token.*\)$/u, "") : actor.name;
    const pseudonym = this.person(accountKey, `name:${bareName}`);
    if (actor.kind === "token") {
      const tokenKey = `token:${actor.id}`;
      const tokenId = this.byKey.get(tokenKey) ?? `token ${++this.tokens}`;
      this.byKey.set(tokenKey, tokenId);
      return { kind: actor.kind, id: tokenId, name: `${pseudonym} (token)`, userId: actor.userId === null ? null : pseudonym };
    }
    return { kind: actor.kind, id: pseudonym, name: pseudonym, userId: actor.userId === null ? null : pseudonym };
  }

  /** A name typed by a person (an annotation's author, a reviewer). */
  name(name: string): string {
    return this.person(`name:${name}`);
  }
}

/** `event` with its actor pseudonymized (an event without one is returned as it is). */
export function stripEventNames(event: RunEvent, names: Pseudonyms): RunEvent {
  const stripped = event.actor ? { ...event, actor: names.actor(event.actor) } : event;
  if (stripped.type !== "run-pause" || stripped.data.reason !== "spending-limit") return stripped;
  // A budget across runs names whose it is and the account to raise (lib/domain/spending-limits.ts `spendingLimitMessage`).
  const owner = names.person(event.actor?.userId ?? null);
  const detail = stripped.data.detail.replace(/^(?!The lab's)(.+?)'s (daily|monthly) budget is spent:/u, `${owner}'s $2 budget is spent:`).replace(/--user \S+/gu, `--user "${owner}"`);
  return { ...stripped, data: { ...stripped.data, detail } };
}

/** An annotation log entry with its author pseudonymized. */
export function stripAnnotationEventNames(event: AnnotationEvent, names: Pseudonyms): AnnotationEvent {
  return { ...event, author: names.name(event.author) };
}

/** A folded annotation with its author, last editor and every earlier version's editor pseudonymized. */
export function stripAnnotationNames(annotation: Annotation, names: Pseudonyms): Annotation {
  return {
    ...annotation,
    author: names.name(annotation.author),
    updatedBy: names.name(annotation.updatedBy),
    history: annotation.history.map((entry) => ({ ...entry, replacedBy: names.name(entry.replacedBy) })),
  };
}

/**
 * The `names` query parameter of an export route: absent or `keep` → keep, `strip` → strip.
 * @throws AppError("invalid-input") saying the two values for anything else.
 */
export function namesModeOf(value: string | null | undefined): NamesMode {
  if (value === null || value === undefined || value === "" || value === "keep") return "keep";
  if (value === "strip") return "strip";
  throw new AppError("invalid-input", `names must be "keep" or "strip" (got "${value}").`);
}
