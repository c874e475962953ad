"use client";

/**
 * Inspector views of code runs (paper §4, programming Reflexion): the code an
 * action wrote, the internal tests' results, and — on the evaluation node —
 * the agent's verdict beside the hidden tests' one, with the false-positive
 * flag. inspector-panel.tsx shows these for nodes whose data has a `code` view.
 *
 * Test ids for end-to-end tests (scope them by `inspector`: the graph nodes
 * reuse the verdict ones):
 * - `code-view` — the read-only Monaco container of a program or the tests
 *   (`data-language`); `code-view-text` — the same code as plain text;
 * - `test-table` — a per-test table (`data-kind` internal | hidden,
 *   `data-passed`, `data-total`), its rows `test-row` with `data-status`
 *   (pass | fail | error | timeout); `dropped-tests` — lines WriteTests dropped;
 * - `verdict-internal`, `verdict-hidden` — the two verdicts (`data-verdict`);
 * - `false-positive-flag` — shown only when the internal tests passed and the
 *   hidden tests failed, with the explanation.
 */

import { readCodeStepState, type CodeInternalRunState, type CodeStepState } from "@/lib/domain/code-trial";
import type { RunState, TrialView } from "@/lib/domain/fold-run";
import { falsePositiveCause, falsePositiveExplanation, lastInternalRun, type CodeLanguage, type GraphNodeOf } from "@/lib/graph";
import { Badge } from "@/components/ui/badge";
import { formatMs } from "@/components/ui/format";
import { Notice } from "@/components/ui/notice";
import { VerdictBox } from "@/components/run-graph";
import { Section, TextBlock } from "./blocks";
import { CodeViewer } from "./code-viewer";
import { TestTable } from "./test-table";

function trialOf(state: RunState, trial: number): TrialView | undefined {
  return state.trials.find((candidate) => candidate.trial === trial);
}

function stepStateOf(state: RunState, trial: number, step: number): CodeStepState | null {
  return readCodeStepState(trialOf(state, trial)?.steps.find((candidate) => candidate.step === step)?.observation?.state);
}

const countLines = (code: string) => code.trimEnd().split("\n").length;

/** A `Write tests` / `Implement` action: its code, highlighted. */
export function CodeActionDetails({ node }: { node: GraphNodeOf<"action"> }) {
  const code = node.data.code;
  if (!code) return null;
  const source = node.data.argument?.trim() ? node.data.argument : node.data.text;
  const author = node.data.recordedByAuthors ? "the model (as logged)" : node.data.callId === null ? "a person" : "the model";
  const title = code.actionType === "WriteTests" ? `Internal tests as ${author} wrote them` : node.data.callId === null ? "Implementation (written by a person)" : "Implementation";
  return (
    <Section
      title={`${title} · ${countLines(source)} lines`}
      right={
        <Badge tone="sky" data-testid="code-action-verb">
          {code.verb} · {code.language}
        </Badge>
      }
    >
      <CodeViewer code={source} language={code.language} label={title} />
      {code.actionType === "WriteTests" ? (
        <p className="text-[11px] text-slate-500">Lines that do not parse, and any after the first five, are dropped: open the next node to see which were kept.</p>
      ) : null}
    </Section>
  );
}

function InternalRun({ run, title }: { run: CodeInternalRunState; title: string }) {
  const passed = run.tests.filter((test) => test.status === "pass").length;
  return (
    <Section
      title={`${title} · ${passed}/${run.tests.length} passed`}
      right={
        <Badge tone={run.verdict === "pass" ? "green" : "red"} data-testid="internal-run-verdict" data-verdict={run.verdict}>
          {run.verdict === "pass" ? "✓ pass" : "✗ fail"}
        </Badge>
      }
    >
      <TestTable tests={run.tests} language={run.language} kind="internal" caption={`${title}: ${passed} of ${run.tests.length} passed`} />
    </Section>
  );
}

/** After `WriteTests`: the tests kept and the lines dropped. After `Implement`: the internal tests' table, the feedback and the program tested. */
export function CodeObservationDetails({ node, state }: { node: GraphNodeOf<"observation">; state: RunState }) {
  const stepState = stepStateOf(state, node.data.trial, node.data.step);
  if (!stepState) return null;
  if (stepState.kind === "code-tests-written") {
    // Who wrote the lines: the model, or a person (an action edit: no model call).
    const action = trialOf(state, node.data.trial)?.steps.find((candidate) => candidate.step === node.data.step)?.action;
    const writer = action ? (action.callId === null ? "a person" : "the model") : null;
    return (
      <>
        <Section title={`Internal tests kept · ${stepState.kept.length} of ${stepState.kept.length + stepState.dropped.length}`}>
          {stepState.kept.length > 0 ? (
            <CodeViewer code={stepState.kept.join("\n")} language={stepState.language} label="Internal tests kept" />
          ) : (
            <p className="text-xs text-slate-500">No test was kept: every implementation passes an empty suite.</p>
          )}
        </Section>
        {stepState.dropped.length > 0 ? (
          <Section title={`Dropped lines${writer === "a person" ? " (written by a person)" : ""} · ${stepState.dropped.length}`}>
            <div className="overflow-x-auto rounded-md border border-slate-200">
              <table data-testid="dropped-tests" className="w-full border-collapse text-left text-xs">
                <caption className="sr-only">{writer ? `Lines ${writer} wrote` : "Lines written"} that are not used as tests, and why</caption>
                <thead className="bg-slate-50 text-[10px] uppercase tracking-wide text-slate-500">
                  <tr>
                    <th scope="col" className="px-2 py-1.5 font-semibold">Line</th>
                    <th scope="col" className="px-2 py-1.5 font-semibold">Why dropped</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {stepState.dropped.map((dropped, index) => (
                    <tr key={index} data-testid="dropped-row">
                      <td className="px-2 py-1.5 align-top font-mono text-[11px] text-slate-800">{dropped.line}</td>
                      <td className="px-2 py-1.5 align-top text-slate-700">{dropped.reason}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </Section>
        ) : null}
        <Section title="Observation">
          <TextBlock testId="inspector-text">{node.data.text}</TextBlock>
        </Section>
      </>
    );
  }
  return (
    <>
      <InternalRun run={stepState} title="Internal tests" />
      <Section title="Feedback the agent sees">
        <TextBlock testId="inspector-text" mono>
          {node.data.text}
        </TextBlock>
      </Section>
      <Section title={`Implementation tested · ${countLines(stepState.implementation)} lines`}>
        <CodeViewer code={stepState.implementation} language={stepState.language} label="Implementation tested" />
      </Section>
    </>
  );
}

/**
 * The evaluation of a code trial: the internal verdict (what the agent knows,
 * and what drives the loop) beside the hidden tests' verdict (reporting only),
 * the false-positive flag, both test tables and the program evaluated.
 */
export function CodeVerdictDetails({ node, state, language }: { node: GraphNodeOf<"evaluation">; state: RunState; language: CodeLanguage }) {
  const code = node.data.code;
  const trial = trialOf(state, node.data.trial);
  if (!code || !trial) return null;
  const hidden = trial.evaluation?.hiddenTests ?? null;
  const internalRun = lastInternalRun(trial);
  return (
    <>
      <Section title="Verdicts">
        <div className="flex gap-2">
          <VerdictBox which="internal" verdict={code.internal} passed={code.internalPassed} total={code.internalTotal} className="px-2 py-1.5" />
          <VerdictBox which="hidden" verdict={hidden?.verdict ?? null} passed={hidden?.passed ?? null} total={hidden?.total ?? null} className="px-2 py-1.5" />
        </div>
        <ul className="list-disc space-y-0.5 pl-4 text-[11px] leading-snug text-slate-600">
          <li>
            <strong className="font-medium text-slate-800">Internal</strong>: the agent&apos;s own tests ({node.data.evaluatorKind}, no gold answer). This is the Evaluator&apos;s verdict: it decides whether the loop goes on.
          </li>
          <li>
            <strong className="font-medium text-slate-800">Hidden</strong>: the benchmark&apos;s tests, run once per trial for reporting only; the agent never sees them or their result.
          </li>
        </ul>
        {code.falsePositive ? (
          <Notice tone="warning" data-testid="false-positive-flag" data-vacuous={code.vacuous || undefined} className="text-xs">
            <strong className="font-semibold">⚠ False positive.</strong> {falsePositiveExplanation(code.vacuous)} {falsePositiveCause(code.vacuous)}
          </Notice>
        ) : null}
      </Section>
      {internalRun ? <InternalRun run={internalRun} title="Internal tests — what the agent saw" /> : null}
      <Section
        title="Hidden tests — reporting only, never shown to the agent"
        right={
          hidden ? (
            <span className="text-[11px] text-slate-500" data-testid="hidden-duration">
              {formatMs(hidden.durationMs)}
            </span>
          ) : null
        }
      >
        {hidden ? (
          <TestTable tests={hidden.tests} language={language} kind="hidden" caption={`Hidden tests: ${hidden.passed} of ${hidden.total} passed`} />
        ) : (
          <p className="text-xs text-slate-500" data-testid="hidden-not-run">
            The hidden tests were not run for this trial.
          </p>
        )}
      </Section>
      {internalRun ? (
        <Section title={`Implementation evaluated · ${countLines(internalRun.implementation)} lines`}>
          <CodeViewer code={internalRun.implementation} language={internalRun.language} label="Implementation evaluated" />
        </Section>
      ) : null}
    </>
  );
}
