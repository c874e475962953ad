/**
 * Replay at class speed and the URL of a run's moment:
 * the replay bar with its keys, and the store ↔ URL sync of `?cursor=&node=`.
 */
export { CopyLinkButton, nodeLinkHref } from "./copy-link-button";
export { REPLAY_PACE_MS, REPLAY_SPEEDS, ReplayBar } from "./replay-bar";
export { RunUrlSync } from "./run-url-sync";
export { isTypingTarget, REPLAY_KEYS, replayKeyAction, useReplayKeys, type ReplayKeyAction } from "./use-replay-keys";
