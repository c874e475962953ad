/**
 * Long loops on the server (creating an experiment's runs, reading a large task set) hand the event
 * loop back to other requests between slices instead of holding it for seconds.
 */

/**
 * A function to await between pieces of a long loop: it yields to the event loop (setImmediate, so
 * pending I/O and other requests run) once the current slice has held it for `sliceMs` milliseconds,
 * and returns at once otherwise, so a short loop pays nothing.
 */
export function eventLoopYielder(sliceMs = 20): () => Promise<void> {
  let sliceStart = performance.now();
  return async () => {
    if (performance.now() - sliceStart < sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    sliceStart = performance.now();
  };
}
