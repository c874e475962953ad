/**
 * The offline `demo` model's behaviour, as a pure function of the prompt
 * (DESIGN.md §4). Each task family that has built-in tasks supplies one
 * script book; lib/llm wraps the books as a deterministic, clearly labelled
 * stand-in model that fails, reflects and succeeds, and reacts to the memory it
 * is given, so editing a reflection visibly changes the next trial.
 */
export interface DemoScriptBook {
  /**
   * The demo model's completion for `prompt` (the full rendered prompt, sent as
   * one user message): an Actor step or a reflection, depending on how the
   * prompt ends. Returns null when the prompt is not about a task this book
   * knows, or not in a shape it can answer; the caller then falls back to
   * something generic. Never throws. `context.seed`: the call's sampling seed,
   * for a book that varies with it (lib/domain/demo-variation.ts).
   */
  respond(prompt: string, context?: DemoCallContext): string | null;
}

/** What a demo book may know of a call besides its prompt. */
export interface DemoCallContext {
  /** The call's sampling seed; undefined when none was sent. */
  seed?: number;
}
