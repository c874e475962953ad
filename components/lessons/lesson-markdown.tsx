"use client";

import ReactMarkdown, { type Components } from "react-markdown";
import { cn } from "@/lib/utils/cn";

/** Element styles for lesson Markdown (no typography plugin: the few elements narration uses). */
const components: Components = {
  p: ({ children }) => <p className="mb-2 last:mb-0">{children}</p>,
  strong: ({ children }) => <strong className="font-semibold text-slate-900">{children}</strong>,
  em: ({ children }) => <em className="italic">{children}</em>,
  code: ({ children }) => <code className="rounded bg-slate-100 px-1 py-px font-mono text-[0.9em] text-slate-900">{children}</code>,
  ul: ({ children }) => <ul className="mb-2 list-disc pl-5">{children}</ul>,
  ol: ({ children }) => <ol className="mb-2 list-decimal pl-5">{children}</ol>,
  a: ({ children, href }) => (
    <a href={href} className="text-sky-700 underline" rel="noreferrer">
      {children}
    </a>
  ),
};

/**
 * A lesson's Markdown (narration, questions, explanations) rendered with
 * react-markdown: no raw HTML (the default), so a lesson file cannot inject markup.
 */
export function LessonMarkdown({ text, className, testId }: { text: string; className?: string; /** `data-testid` of the wrapper. */ testId?: string }) {
  return (
    <div className={cn("leading-relaxed text-slate-700", className)} data-testid={testId}>
      <ReactMarkdown components={components} skipHtml>
        {text}
      </ReactMarkdown>
    </div>
  );
}
