/**
 * Where a browser keeps its class credentials (localStorage, one key per class): the teacher's
 * secret (sent as `x-class-teacher`) and a student's token (sent as `x-class-student`). Neither
 * is ever put in a URL the server sees; the CLI's teacher link carries the secret in the fragment.
 */

const TEACHER_PREFIX = "reflexion.class.teacher.";
const STUDENT_PREFIX = "reflexion.class.student.";

/** A student's stored membership of one class: the token the server gave on join and the nickname they chose. */
export interface StudentCredentials {
  token: string;
  nickname: string;
}

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    // Storage refused (private mode, policy): the page says the secret is missing and how to get it.
    return null;
  }
}

/** The teacher secret stored for `classId`, or null when this browser has none. */
export function readTeacherSecret(classId: string): string | null {
  return storage()?.getItem(TEACHER_PREFIX + classId) ?? null;
}

/** Stores the teacher secret of `classId` (returned once when the class is created). */
export function storeTeacherSecret(classId: string, secret: string): void {
  storage()?.setItem(TEACHER_PREFIX + classId, secret);
}

/** The student token and nickname stored for `classId`, or null when this browser has not joined it. */
export function readStudentCredentials(classId: string): StudentCredentials | null {
  const raw = storage()?.getItem(STUDENT_PREFIX + classId);
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed === "object" && parsed !== null && "token" in parsed && "nickname" in parsed && typeof parsed.token === "string" && typeof parsed.nickname === "string") {
      return { token: parsed.token, nickname: parsed.nickname };
    }
  } catch {
    // A damaged entry is treated as none: the student joins again.
  }
  return null;
}

/** Stores a student's token and nickname for `classId` (after `POST /api/classes/join`). */
export function storeStudentCredentials(classId: string, credentials: StudentCredentials): void {
  storage()?.setItem(STUDENT_PREFIX + classId, JSON.stringify(credentials));
}

/** Forgets this browser's membership of `classId` (a token the server refuses: the student joins again). */
export function forgetStudentCredentials(classId: string): void {
  storage()?.removeItem(STUDENT_PREFIX + classId);
}

/**
 * The teacher secret in a URL fragment (`#teacher=<secret>`, as `cli class start` prints it), or
 * null when the fragment has none. Pure: the caller stores it and removes the fragment.
 */
export function teacherSecretFromHash(hash: string): string | null {
  const params = new URLSearchParams(hash.startsWith("#") ? hash.slice(1) : hash);
  const secret = params.get("teacher")?.trim();
  return secret ? secret : null;
}
