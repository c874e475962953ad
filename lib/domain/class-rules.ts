import { stringSimilarity } from "string-similarity-js";
import { NICKNAME_MAX, type ClassAnswerRecord, type ClassReflectionGroup } from "./class-session";

/**
 * The pure rules of class sessions (lib/domain/class-session.ts): join codes, nicknames,
 * grouping of near-duplicate reflections, the answer histogram and the class score. No I/O.
 */

/** Join-code characters: upper-case letters and digits without the ambiguous 0/O, 1/I/L (and U/V). */
export const JOIN_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTWXYZ23456789";
/** Characters in a join code (29^6 ≈ 595 million codes). */
export const JOIN_CODE_LENGTH = 6;

/**
 * A new join code from `randomInt` (e.g. node:crypto `randomInt`; injectable for tests): uniform
 * over {@link JOIN_CODE_ALPHABET}.
 */
export function makeJoinCode(randomInt: (max: number) => number): string {
  let code = "";
  for (let position = 0; position < JOIN_CODE_LENGTH; position += 1) code += JOIN_CODE_ALPHABET[randomInt(JOIN_CODE_ALPHABET.length)];
  return code;
}

/**
 * What a student typed, as a code: upper-cased, spaces and dashes dropped. Null when it cannot be
 * a code (wrong length, or a character outside {@link JOIN_CODE_ALPHABET}).
 */
export function normaliseJoinCode(input: string): string | null {
  const code = input.toUpperCase().replace(/[\s-]/g, "");
  if (code.length !== JOIN_CODE_LENGTH) return null;
  for (const char of code) if (!JOIN_CODE_ALPHABET.includes(char)) return null;
  return code;
}

/** The result of {@link checkNickname}: the nickname to store, or what is wrong in words a student can act on. */
export type NicknameCheck = { ok: true; nickname: string } | { ok: false; message: string };

/**
 * A nickname's rules: NFC-normalised, trimmed, 1..{@link NICKNAME_MAX} characters (code points),
 * no control or invisible format characters (a nickname is shown as text on the teacher's screen).
 */
export function checkNickname(input: string): NicknameCheck {
  const nickname = input.normalize("NFC").trim();
  if (nickname.length === 0) return { ok: false, message: "Pick a nickname (1 to 24 characters)." };
  if ([...nickname].length > NICKNAME_MAX) return { ok: false, message: `A nickname is at most ${NICKNAME_MAX} characters; pick a shorter one.` };
  if (/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(nickname)) return { ok: false, message: "A nickname cannot hold control or invisible characters; type letters, digits or emoji." };
  return { ok: true, nickname };
}

/** The key two nicknames clash on: case- and accent-insensitive, inner spaces collapsed. */
export function nicknameKey(nickname: string): string {
  return nickname
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

/** A reflection's text as compared for grouping: lower-case, punctuation dropped, whitespace collapsed. */
export function normaliseReflection(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Dice similarity at or above which two normalised reflections are one group. */
export const REFLECTION_GROUP_SIMILARITY = 0.8;

/** A reflection to group: who wrote it (nickname null when hidden) and when. */
export interface GroupableReflection {
  studentId: string;
  nickname: string | null;
  text: string;
  submittedAt: string;
}

/**
 * Groups near-duplicate reflections: in submission order, each joins the first group whose
 * representative (first member) has the same normalised text or a Dice similarity
 * (string-similarity-js, bigrams) ≥ {@link REFLECTION_GROUP_SIMILARITY}; else it starts one.
 * Group ids are `g-<first member's student id>`. Groups come largest first, then oldest.
 * `nicknames` is null when every input's nickname is null (the projector).
 */
export function groupReflections(reflections: readonly GroupableReflection[]): ClassReflectionGroup[] {
  const ordered = [...reflections].sort((a, b) => a.submittedAt.localeCompare(b.submittedAt) || a.studentId.localeCompare(b.studentId));
  const groups: Array<{ id: string; text: string; key: string; members: number; nicknames: string[]; order: number }> = [];
  const hidden = reflections.every((reflection) => reflection.nickname === null);
  for (const reflection of ordered) {
    const key = normaliseReflection(reflection.text);
    const group = groups.find((candidate) => candidate.key === key || (key.length > 0 && stringSimilarity(candidate.key, key) >= REFLECTION_GROUP_SIMILARITY));
    if (group) {
      group.members += 1;
      if (reflection.nickname !== null) group.nicknames.push(reflection.nickname);
      continue;
    }
    groups.push({ id: `g-${reflection.studentId}`, text: reflection.text, key, members: 1, nicknames: reflection.nickname === null ? [] : [reflection.nickname], order: groups.length });
  }
  return groups
    .sort((a, b) => b.members - a.members || a.order - b.order)
    .map((group) => ({ id: group.id, text: group.text, members: group.members, nicknames: hidden ? null : group.nicknames }));
}

/** Answers per choice id: every choice present (0 when nobody picked it); answers naming no choice are left out. */
export function histogram(choiceIds: readonly string[], answers: readonly Pick<ClassAnswerRecord, "choiceId">[]): Record<string, number> {
  const counts: Record<string, number> = Object.fromEntries(choiceIds.map((id) => [id, 0]));
  for (const answer of answers) if (answer.choiceId in counts) counts[answer.choiceId] = (counts[answer.choiceId] ?? 0) + 1;
  return counts;
}

/** One student's score: right answers and answers given, over revealed questions only. */
export interface StudentScore {
  studentId: string;
  correct: number;
  answered: number;
}

/**
 * The class score: for every student, how many revealed questions they answered and got right.
 * `answerKey` maps a revealed step's index to its right choice id (unrevealed steps are absent,
 * so they count for nobody). Best first (correct, then answered fewer, then join order).
 */
export function classScore(studentIds: readonly string[], answers: readonly ClassAnswerRecord[], answerKey: ReadonlyMap<number, string>): StudentScore[] {
  const scores = new Map(studentIds.map((studentId, order) => [studentId, { studentId, correct: 0, answered: 0, order }]));
  for (const answer of answers) {
    const right = answerKey.get(answer.step);
    const score = scores.get(answer.studentId);
    if (right === undefined || !score) continue;
    score.answered += 1;
    if (answer.choiceId === right) score.correct += 1;
  }
  return [...scores.values()].sort((a, b) => b.correct - a.correct || a.answered - b.answered || a.order - b.order).map(({ studentId, correct, answered }) => ({ studentId, correct, answered }));
}

/**
 * A run's branches without those a class made (`classBranchIds`) and their descendants: what the
 * run's own branch list shows, so a class leaves the lesson's run list as it was. Order kept.
 */
export function withoutClassBranches<B extends { id: string; parentBranchId: string | null }>(branches: readonly B[], classBranchIds: ReadonlySet<string>): B[] {
  if (classBranchIds.size === 0) return [...branches];
  const byId = new Map(branches.map((branch) => [branch.id, branch]));
  const hidden = (branch: B): boolean => {
    for (let current: B | undefined = branch, depth = 0; current && depth <= branches.length; current = current.parentBranchId ? byId.get(current.parentBranchId) : undefined, depth += 1) {
      if (classBranchIds.has(current.id)) return true;
    }
    return false;
  };
  return branches.filter((branch) => !hidden(branch));
}

const STUDENT_PAGES = [/^\/join\/?$/, /^\/join\/[^/]+\/?$/, /^\/class\/[^/]+\/?$/];

/**
 * True for the students' pages (`/join`, `/join/<code>`, `/class/<id>`): what a phone on the
 * room's network may open in class LAN mode (lib/server/lan-peer.ts), and where the site header
 * shows no links into the rest of the app (a student has no use for them).
 */
export function isStudentPage(pathname: string): boolean {
  return STUDENT_PAGES.some((page) => page.test(pathname));
}
