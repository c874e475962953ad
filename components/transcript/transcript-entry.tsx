"use client";

import { memo, type ReactNode } from "react";
import { withPlaceholders } from "@/lib/graph";
import type { TranscriptEntry as Entry } from "@/lib/graph/transcript";
import { transcriptElementId } from "@/lib/graph/transcript";
import { useRunUiStore } from "@/lib/store";
import { cn } from "@/lib/utils/cn";

/** Characters of one text shown in the transcript; the inspector (Details) has the whole text. */
const TEXT_CHARS = 2_000;

/** A model or environment text as the transcript shows it: binary payloads as placeholders, long text cut with a count. */
function shownText(text: string): string {
  const head = withPlaceholders(text.length > TEXT_CHARS * 4 ? text.slice(0, TEXT_CHARS * 4) : text);
  if (head.length <= TEXT_CHARS) return head;
  return `${head.slice(0, TEXT_CHARS)}… (${(text.length - TEXT_CHARS).toLocaleString("en-US")} more characters: see Details)`;
}

/** What the entry is called, as its heading reads. */
export function entryLabel(entry: Entry): string {
  switch (entry.type) {
    case "thought":
      return "Thought";
    case "action":
      if (entry.data.code) return `Action: ${entry.data.code.verb}`;
      return entry.data.thought ? "Thought (a think action)" : "Action";
    case "observation":
      return "Observation";
    case "evaluation":
      return "Evaluation";
    case "reflection":
      return "Reflection";
    case "refinement":
      return `Self-Refine round ${entry.data.round}`;
    case "call-error":
      return `${entry.data.role} model call failed`;
    case "live-call":
      if (entry.data.role !== "actor") return "Self-Reflection being written";
      return entry.data.step === null ? "Self-Refine call being written" : "Actor step being written";
  }
}

/** Where the entry is, for its Details button's name: `trial 1, step 2`. */
function placeOf(entry: Entry): string {
  const step = "step" in entry.data && typeof entry.data.step === "number" ? `, step ${entry.data.step}` : "";
  return `trial ${entry.data.trial}${step}`;
}

/** Short notes about an entry (who wrote it, edits, checks), read as text after its label. */
function annotations(entry: Entry): string[] {
  const notes: string[] = [];
  const source = "callSource" in entry.data ? entry.data.callSource : null;
  if (source === "cache") notes.push("from the response cache");
  switch (entry.type) {
    case "thought":
      if (entry.data.recordedByAuthors) notes.push("as the imported log has it");
      else if (entry.data.callId === null) notes.push("written by a person");
      if (entry.data.reasoningChars > 0) notes.push(`${entry.data.reasoningChars.toLocaleString("en-US")} characters of reasoning taken out`);
      break;
    case "action":
      if (entry.data.recordedByAuthors) notes.push("as the imported log has it");
      else if (entry.data.callId === null) notes.push("written by a person (an action edit)");
      if (entry.data.invalid) notes.push(`invalid action${entry.data.parseError ? `: ${entry.data.parseError}` : ""}`);
      if (entry.data.truncated) notes.push("cut off by the token limit");
      if (entry.data.ignored) notes.push(`the action reader ignored: ${withPlaceholders(entry.data.ignored).slice(0, 300)}`);
      break;
    case "observation":
      if (entry.data.repeats > 1) notes.push(`the same action and observation ${entry.data.repeats} steps in a row (a loop)`);
      if (entry.data.noEffect) notes.push("the action had no effect");
      if (entry.data.done) notes.push(entry.data.answer !== null ? `the episode ended with the answer ${entry.data.answer}` : "the episode ended");
      break;
    case "evaluation":
      if (entry.data.oracle) notes.push("oracle: the Evaluator used the gold answer");
      break;
    case "reflection":
      if (entry.data.edited) notes.push("edited by a person");
      if (entry.data.warning) notes.push(`failed a check: ${entry.data.warning}`);
      if (entry.data.inNextContext === true) notes.push("carried into the next trial's context");
      if (entry.data.inNextContext === false) notes.push("not in the next trial's context (memory window Ω)");
      break;
    case "call-error":
      notes.push(entry.data.code);
      break;
    case "live-call":
      if (entry.data.joinedLate) notes.push("joined late: the start of the text was streamed before this page listened");
      if (entry.data.ended) notes.push("the call has returned");
      break;
  }
  return notes;
}

/** The entry's body: the text it stands for, and for code and evaluations their figures. */
function entryBody(entry: Entry): ReactNode {
  switch (entry.type) {
    case "thought":
      return entry.data.text ? <Text>{shownText(entry.data.text)}</Text> : <Text>(no thought)</Text>;
    case "action": {
      const code = entry.data.code;
      if (code && !entry.data.invalid) {
        return (
          <>
            <Text>
              {code.verb}, {code.language}, {code.lines} {code.lines === 1 ? "line" : "lines"}:
            </Text>
            <pre className="mt-1 whitespace-pre-wrap break-words rounded bg-slate-100 px-2 py-1 font-mono text-xs text-slate-900">{code.preview.join("\n")}</pre>
          </>
        );
      }
      return <Text mono>{shownText(entry.data.display ?? entry.data.text)}</Text>;
    }
    case "observation": {
      const code = entry.data.code;
      const world =
        entry.data.location !== null || entry.data.inventory !== null
          ? `${entry.data.location !== null ? `At ${entry.data.location}.` : ""}${entry.data.inventory !== null ? ` Holding ${entry.data.inventory.length > 0 ? entry.data.inventory.join(", ") : "nothing"}.` : ""}`
          : null;
      if (code?.kind === "tests-written") {
        return (
          <Text>
            Kept {code.kept} of {code.written} internal tests.{code.firstDropReason ? ` First dropped: ${code.firstDropReason}` : ""}
          </Text>
        );
      }
      if (code?.kind === "internal-run") {
        return (
          <Text>
            Internal tests: {code.passed} of {code.total} passed ({code.verdict}).{code.firstFailure ? ` First failure: ${shownText(code.firstFailure)}` : ""}
          </Text>
        );
      }
      return (
        <>
          <Text>{shownText(entry.data.text)}</Text>
          {world ? <Text>{world.trim()}</Text> : null}
        </>
      );
    }
    case "evaluation": {
      const { code, judge } = entry.data;
      return (
        <>
          <Text>
            Verdict: <strong>{entry.data.verdict}</strong> (score {entry.data.score}, {entry.data.evaluatorKind}).
            {code
              ? ` Internal tests: ${code.internal}${code.internalPassed !== null && code.internalTotal !== null ? ` (${code.internalPassed} of ${code.internalTotal})` : ""}; hidden tests: ${code.hidden ? `${code.hidden.verdict} (${code.hidden.passed} of ${code.hidden.total})` : "not run"}.${code.falsePositive ? " A false positive: the internal tests passed a wrong program." : ""}`
              : ""}
            {judge ? ` Judge ${judge.modelId}: weighted score ${judge.weightedScore.toFixed(2)} against the threshold ${judge.threshold.toFixed(2)}.` : ""}
          </Text>
          {entry.data.feedback ? <Text>{shownText(entry.data.feedback)}</Text> : null}
        </>
      );
    }
    case "reflection":
      return (
        <>
          <Text>{shownText(entry.data.text)}</Text>
          {entry.data.edited ? <Text>The model wrote: {shownText(entry.data.originalText)}</Text> : null}
        </>
      );
    case "refinement":
      return (
        <>
          <Text>Feedback: {shownText(entry.data.feedback)}</Text>
          {entry.data.stop ? <Text>Nothing left to fix: the Evaluator judges the answer as it is.</Text> : null}
          {entry.data.answer !== null ? <Text mono={entry.data.monospace}>Refined answer: {shownText(entry.data.answer)}</Text> : null}
        </>
      );
    case "call-error":
      return <Text>{shownText(entry.data.message)}</Text>;
    case "live-call":
      return <Text mono={entry.data.monospace}>{entry.data.text ? shownText(entry.data.text) : "(nothing streamed yet)"}</Text>;
  }
}

function Text({ children, mono = false }: { children: ReactNode; mono?: boolean }) {
  return <p className={cn("mt-0.5 whitespace-pre-wrap break-words text-sm text-slate-800", mono && "font-mono text-xs")}>{children}</p>;
}

/**
 * One node of the graph as a transcript entry: its label, notes and text, and a
 * Details button that selects the node (the inspector opens, and the graph
 * shows it selected). The selected entry is marked `aria-current` and drawn
 * with the graph's selection colour; a lesson's spotlight is marked too.
 * `tabbable: false` keeps the button out of the Tab order (the visually hidden
 * copy a screen reader reads while the graph is shown).
 */
export const TranscriptEntryItem = memo(function TranscriptEntryItem({ entry, tabbable, onSelect }: { entry: Entry; tabbable: boolean; onSelect: (nodeId: string) => void }) {
  const selected = useRunUiStore((state) => state.selectedNodeId === entry.id);
  const spotlit = useRunUiStore((state) => state.spotlight.includes(entry.id));
  const label = entryLabel(entry);
  const notes = annotations(entry);
  return (
    <li
      id={tabbable ? transcriptElementId(entry.id) : undefined}
      tabIndex={tabbable ? -1 : undefined}
      aria-current={selected ? "true" : undefined}
      data-testid="transcript-entry"
      data-transcript-node={entry.id}
      data-kind={entry.type}
      data-trial={entry.data.trial}
      data-selected={selected || undefined}
      // Its own attribute names, not data-node-id / data-spotlight: those mark the graph's nodes, which tests look up and count.
      data-spotlit={spotlit || undefined}
      className={cn(
        "rounded-md border border-transparent px-2 py-1.5 focus-visible:outline-2 focus-visible:outline-sky-600",
        selected && "border-sky-600 bg-sky-50",
        spotlit && "outline-2 outline-amber-500",
      )}
    >
      <div className="flex flex-wrap items-baseline gap-x-2">
        <span className="text-xs font-semibold uppercase tracking-wide text-slate-700">{label}</span>
        {entry.type === "evaluation" ? <span className={cn("text-xs font-semibold", entry.data.verdict === "pass" ? "text-green-800" : "text-red-800")}>{entry.data.verdict}</span> : null}
        {spotlit ? <span className="text-xs font-medium text-amber-900">(the lesson points here)</span> : null}
        <button
          type="button"
          tabIndex={tabbable ? undefined : -1}
          onClick={() => onSelect(entry.id)}
          aria-label={`Details: ${label.toLowerCase()}, ${placeOf(entry)}`}
          data-testid="transcript-select"
          className="ml-auto rounded px-1.5 text-xs font-medium text-sky-800 underline underline-offset-2 hover:text-sky-950"
        >
          Details
        </button>
      </div>
      {notes.length > 0 ? (
        <ul className="mt-0.5 flex flex-wrap gap-x-3 text-xs text-slate-700" aria-label="Notes">
          {notes.map((note) => (
            <li key={note} data-testid="transcript-note">
              {note}
            </li>
          ))}
        </ul>
      ) : null}
      {entryBody(entry)}
    </li>
  );
});
