"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { normaliseJoinCode } from "./join-code";

/** `/join`: a student types the code shown on the projector, then picks a nickname at `/join/<CODE>`. */
export function JoinCodeForm() {
  const router = useRouter();
  const [code, setCode] = useState("");
  const id = useId();
  const clean = normaliseJoinCode(code);
  return (
    <div className="mx-auto flex w-full max-w-md flex-col gap-4 px-4 py-8">
      <h1 className="text-2xl font-semibold text-slate-900">Join a class</h1>
      <form
        className="flex flex-col gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          if (clean) router.push(`/join/${encodeURIComponent(clean)}`);
        }}
        data-testid="join-code-form"
      >
        <label htmlFor={id} className="text-lg text-slate-800">
          The code on the projector
        </label>
        <input
          id={id}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={32}
          className="h-14 rounded-md border border-slate-300 bg-white px-3 text-center font-mono text-3xl uppercase tracking-[0.2em] text-slate-900"
          data-testid="join-code"
        />
        <Button type="submit" variant="primary" className="h-14 text-lg" disabled={!clean} data-testid="join-code-submit">
          Next
        </Button>
      </form>
    </div>
  );
}
