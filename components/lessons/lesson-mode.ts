/**
 * The lesson player's two flags (docs/decisions/0021): presenter mode (`?present=1`
 * or the Present button) and free exploration (Esc leaves the narration, `l` comes back). Leaving
 * to explore pauses presenter mode without forgetting it, so a teacher at a clicker who presses
 * Esc then `l` is back in presenter mode. The URL says `present=1` only while presenting
 * ({@link urlPresent}): after Esc it is dropped (a reload or a copied link opens the ordinary
 * view), and `l` writes it back. Pure.
 */
export interface LessonMode {
  presenter: boolean;
  exploring: boolean;
}

/** What changes the mode: Esc (leave), `l` or the rail's button (back), the Present button. */
export type LessonModeAction = { type: "leave" } | { type: "back" } | { type: "present"; on: boolean };

/** The mode after `action`. */
export function lessonModeReducer(mode: LessonMode, action: LessonModeAction): LessonMode {
  switch (action.type) {
    case "leave":
      return mode.exploring ? mode : { ...mode, exploring: true };
    case "back":
      return mode.exploring ? { ...mode, exploring: false } : mode;
    case "present":
      return mode.presenter === action.on ? mode : { ...mode, presenter: action.on };
  }
}

/** True when the page is in presenter mode now: asked for, and not paused by free exploration. */
export function isPresenting(mode: LessonMode): boolean {
  return mode.presenter && !mode.exploring;
}

/** Whether the URL carries `present=1`: exactly while the page presents (Esc drops it, `l` writes it back). */
export function urlPresent(mode: LessonMode): boolean {
  return isPresenting(mode);
}
