"use client";

import { useId, useState } from "react";
import { parseQuery } from "@/lib/domain/search-grammar";
import { MATCH_FIELDS, NUMERIC_FIELDS, SearchQueryError, TEXT_FIELDS } from "@/lib/domain/search-query";
import { cn } from "@/lib/utils/cn";

/** What each field means, for the grammar help (docs/search.md has the full table). */
const FIELD_HELP: Record<string, string> = {
  family: "task family (qa, household, code, …)",
  strategy: "strategy (reflexion, none, …)",
  model: "the Actor's model id",
  task: "task id",
  run: "run id",
  experiment: "experiment id",
  arm: "experiment arm label",
  outcome: "success, failure or halted",
  tag: "a tag of an annotation on the trial",
  action: "an action, * as a wildcard: action:Search[*]",
  thought: "words in a thought",
  observation: "words in an observation",
  reflection: "words in the reflection",
  cost: "USD of the trial's model calls: cost>0.01",
  repeat: "how often the most repeated action occurs: repeat>=3",
  steps: "steps in the trial",
  trial: "trial number",
  tokens: "tokens of the trial's model calls",
};

/**
 * The search box (docs/search.md): one line of query, Enter searches. The query is parsed here
 * first (lib/domain/search-grammar.ts), so a mistake is shown under the box at once, with the
 * character it is at; `error` shows the server's (same parser's) message. A "Fields" button opens
 * the grammar help as a list (a disclosure: keyboard reachable, Escape closes it). With `action`
 * and no `onSearch`, a valid query is submitted as a plain GET form (`<action>?q=…`).
 */
export function QueryBox({
  initialQuery = "",
  onSearch,
  action,
  error = null,
  label = "Search trials",
  className,
}: {
  initialQuery?: string;
  /** Called with the trimmed query when it parses. */
  onSearch?: (query: string) => void;
  /** Where a plain form submission goes when there is no `onSearch` (the search page). */
  action?: string;
  /** An error to show under the box (the server's answer to the last search). */
  error?: { message: string; offset: number } | null;
  label?: string;
  className?: string;
}) {
  const [query, setQuery] = useState(initialQuery);
  const [localError, setLocalError] = useState<{ message: string; offset: number } | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const ids = { input: useId(), error: useId(), help: useId() };
  const shown = localError ?? error;

  /** True when the query parses (else the error is shown). */
  const valid = () => {
    try {
      parseQuery(query);
      setLocalError(null);
      return true;
    } catch (thrown) {
      if (thrown instanceof SearchQueryError) setLocalError({ message: thrown.message, offset: thrown.offset });
      else throw thrown;
      return false;
    }
  };

  return (
    <div className={cn("space-y-1", className)} data-testid="query-box">
      <form
        role="search"
        action={action}
        method="get"
        className="flex items-center gap-2"
        onSubmit={(event) => {
          if (!valid()) event.preventDefault();
          else if (onSearch) {
            event.preventDefault();
            onSearch(query.trim());
          }
        }}
      >
        <label htmlFor={ids.input} className="sr-only">
          {label}
        </label>
        <input
          id={ids.input}
          type="search"
          name="q"
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            setLocalError(null);
          }}
          placeholder='e.g. family:household repeat>=3   or   outcome:failure "went wrong"'
          aria-invalid={shown ? true : undefined}
          aria-describedby={shown ? ids.error : undefined}
          className="min-w-0 flex-1 rounded border border-slate-300 bg-white px-2 py-1 font-mono text-xs text-slate-900 focus:border-sky-500 focus:outline-none focus:ring-1 focus:ring-sky-500"
          data-testid="query-box-input"
        />
        <button type="submit" className="rounded bg-slate-800 px-2 py-1 text-xs font-medium text-white hover:bg-slate-700">
          Search
        </button>
        <button
          type="button"
          aria-expanded={helpOpen}
          aria-controls={ids.help}
          onClick={() => setHelpOpen((open) => !open)}
          className="rounded border border-slate-300 px-2 py-1 text-xs text-slate-700 hover:bg-slate-100"
          data-testid="query-box-help-toggle"
        >
          Fields
        </button>
      </form>
      {shown ? (
        <p id={ids.error} role="alert" className="text-xs text-rose-700" data-testid="query-box-error">
          {shown.message} (at character {shown.offset + 1})
          <span className="mt-0.5 block whitespace-pre font-mono text-[11px] text-slate-600" aria-hidden="true">
            {query}
            {"\n"}
            {" ".repeat(shown.offset)}^
          </span>
        </p>
      ) : null}
      {helpOpen ? (
        <div
          id={ids.help}
          className="rounded border border-slate-200 bg-slate-50 p-2 text-xs text-slate-700"
          onKeyDown={(event) => {
            if (event.key === "Escape") setHelpOpen(false);
          }}
          data-testid="query-box-help"
        >
          <p className="mb-1">
            Terms are AND-ed; <code>-</code> negates one. Words and &quot;quoted phrases&quot; search thoughts, actions, observations and reflections.
          </p>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5">
            {[...MATCH_FIELDS, ...TEXT_FIELDS].map((field) => (
              <FieldRow key={field} name={`${field}:`} help={FIELD_HELP[field] ?? ""} />
            ))}
            {NUMERIC_FIELDS.map((field) => (
              <FieldRow key={field} name={`${field} > >= < <= =`} help={FIELD_HELP[field] ?? ""} />
            ))}
          </dl>
        </div>
      ) : null}
    </div>
  );
}

function FieldRow({ name, help }: { name: string; help: string }) {
  return (
    <>
      <dt className="font-mono text-slate-900">{name}</dt>
      <dd>{help}</dd>
    </>
  );
}
