"use client";

import { diffWords } from "diff";
import { useMemo } from "react";

/**
 * A word diff from the model's reflection to the learner's (the `diff`
 * package's `diffWords`): words only the learner wrote are green and
 * underlined, words only the model wrote are red and struck through.
 */
export function WordDiff({ model, mine }: { model: string; mine: string }) {
  const parts = useMemo(() => diffWords(model, mine, { ignoreCase: true }), [model, mine]);
  return (
    <p className="whitespace-pre-wrap rounded-md border border-slate-200 bg-white p-2 text-xs leading-relaxed text-slate-800" data-testid="practice-word-diff">
      {parts.map((part, index) =>
        part.added ? (
          <ins key={index} className="bg-green-100 text-green-900 decoration-green-600" data-diff="added">
            {part.value}
          </ins>
        ) : part.removed ? (
          <del key={index} className="bg-red-50 text-red-800" data-diff="removed">
            {part.value}
          </del>
        ) : (
          <span key={index}>{part.value}</span>
        ),
      )}
    </p>
  );
}
