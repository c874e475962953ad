"use client";

import { useEffect } from "react";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/notice";

/** Last-resort boundary for a page that threw while rendering. */
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <EmptyState title="Something went wrong on this page" action={<Button onClick={reset}>Try again</Button>}>
      {error.message}
      {error.digest ? <span className="block text-xs text-slate-500">Reference: {error.digest}</span> : null}
    </EmptyState>
  );
}
