"use client";

import { useEffect, useState } from "react";
import { readTeacherSecret, storeTeacherSecret, teacherSecretFromHash } from "./class-credentials";

/**
 * The teacher secret of `classId` for this browser: first a `#teacher=<secret>` fragment (the
 * CLI's teacher link) is moved into localStorage and removed from the address bar
 * (history.replaceState, so it is neither kept in history nor copied with the URL), then the
 * stored secret is read. `undefined` until mounted (no flash of "no secret" on the server
 * render), `null` when this browser has none.
 */
export function useTeacherSecret(classId: string): string | null | undefined {
  const [secret, setSecret] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    const fromLink = teacherSecretFromHash(window.location.hash);
    if (fromLink) {
      storeTeacherSecret(classId, fromLink);
      window.history.replaceState(window.history.state, "", `${window.location.pathname}${window.location.search}`);
    }
    // Reading browser storage once on mount is the point of this hook.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setSecret(readTeacherSecret(classId));
  }, [classId]);
  return secret;
}
