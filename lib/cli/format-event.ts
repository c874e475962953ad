import { isInsightItemId } from "@/lib/domain/insights";
import { budgetPauseDetail } from "@/lib/domain/budget";
import type { RunEvent } from "@/lib/domain/events";

const MAX_OBSERVATION_CHARS = 160;

function indent(text: string): string {
  return text
    .trimEnd()
    .split("\n")
    .map((line) => `    | ${line}`)
    .join("\n");
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * One human-readable line (or null to skip) for an event, as `npm run cli -- run`
 * prints it without `--json`: trial starts, steps, verdicts, reflections, pauses.
 */
export function formatEventLine(event: RunEvent): string | null {
  switch (event.type) {
    case "trial-start": {
      // ExpeL's carried-in insights are counted apart from the task's reflections.
      const insights = event.data.memory.filter((item) => isInsightItemId(item.id)).length;
      return `Trial ${event.data.trial} — memory in context: ${event.data.memory.length - insights} reflection(s)${insights ? `, ${insights} insight(s)` : ""}${event.data.evicted.length ? `, ${event.data.evicted.length} evicted by the window` : ""}`;
    }
    case "step-thought":
      return event.data.text ? `  Thought ${event.data.step}: ${clip(event.data.text, MAX_OBSERVATION_CHARS)}` : null;
    case "step-action":
      // Code actions (WriteTests / Implement) are whole programs: print them as an indented block.
      if (event.data.text.includes("\n")) {
        return `  Action ${event.data.step}${event.data.action ? ` (${event.data.action.type})` : ""}:\n${indent(event.data.text)}`;
      }
      return `  Action ${event.data.step}: ${event.data.text || "(none)"}${event.data.parseError ? `  [invalid: ${event.data.parseError}]` : ""}`;
    case "step-observation":
      if (event.data.state && typeof event.data.state.kind === "string" && event.data.state.kind.startsWith("code-")) {
        return `  Observation ${event.data.step}:\n${indent(event.data.text)}`;
      }
      return `  Observation ${event.data.step}: ${clip(event.data.text, MAX_OBSERVATION_CHARS)}`;
    case "evaluation-end": {
      const hidden = event.data.hiddenTests;
      if (hidden) {
        const internal = `${String(event.data.details.internalPassed ?? "?")}/${String(event.data.details.internalTotal ?? "?")}`;
        const flag = event.data.falsePositive ? "  ⚠ FALSE POSITIVE: the agent's own tests passed a program the hidden tests reject" : "";
        return `  Evaluator (unit tests): internal ${event.data.verdict.toUpperCase()} ${internal} · hidden tests (reporting only, never shown to the agent): ${hidden.verdict.toUpperCase()} ${hidden.passed}/${hidden.total}${flag}`;
      }
      const judge = event.data.judge;
      if (judge) {
        // The LLM judge's per-criterion scores, one line each.
        const relation = event.data.verdict === "pass" ? "≥" : "<";
        const asked = judge.attempts > 1 ? ` (asked ${judge.attempts} times: ${judge.firstProblem ?? "first answer unreadable"})` : "";
        const lines = judge.criteria.map((c) => `    - ${c.id} ×${c.weight}: ${c.rawScore}/5  ${clip(c.justification, MAX_OBSERVATION_CHARS)}`);
        return [`  Evaluator (LLM judge ${judge.modelId}, a model's opinion, not an oracle): ${event.data.verdict.toUpperCase()} — weighted score ${judge.weightedScore.toFixed(2)} ${relation} threshold ${judge.threshold.toFixed(2)}${asked}`, ...lines].join("\n");
      }
      return `  Evaluator (${event.data.evaluatorKind}${event.data.oracle ? ", oracle: uses the gold answer" : ""}): ${event.data.verdict.toUpperCase()} — ${event.data.feedback}`;
    }
    case "trial-end":
      return `Trial ${event.data.trial} verdict: ${event.data.outcome}`;
    case "reflection-end":
      return `Reflection after trial ${event.data.trial}: ${event.data.text}`;
    case "reflection-edit":
      return `Reflection edited: ${event.data.newText}`;
    case "memory-edit":
      return `Memory edited: ${event.data.newMemory.length} item(s)`;
    case "memory-summary":
      return `Memory summarised before trial ${event.data.trial}: ${event.data.before.length} reflections (${event.data.beforeTokens} tokens, budget ${event.data.tokenBudget}) → ${event.data.afterTokens} tokens: ${event.data.after.map((item) => item.text).join(" ")}`;
    case "model-call-error":
      return `Model call failed (${event.data.code}, ${event.data.attempts} attempt(s)): ${event.data.message}`;
    case "run-pause":
      // A provider error's message was printed with its model-call-error line just before.
      if (event.data.reason === "model-error") return "Paused by the provider error above.";
      // The closing lines say how to resume with a larger budget.
      if (event.data.reason === "budget") return `Budget exhausted: ${budgetPauseDetail(event.data.detail)}`;
      return `Paused: ${event.data.detail}`;
    case "pause-request":
      return `Pause requested (${event.data.requestedBy}); it takes effect at the next step boundary.`;
    case "cancel-request":
      return `Cancel requested (${event.data.requestedBy}).`;
    case "run-resume":
      return `Resumed (${event.data.reason}).`;
    case "run-end":
      // Adaptive trials say why the run stopped before its trial budget.
      return `Run ended: ${event.data.outcome} after ${event.data.trials} trial(s).${event.data.stopReason ? ` Stopped early (${event.data.stopReason}): ${event.data.stopDetail ?? ""}` : ""}`;
    case "budget-edit":
      return `Budget: ${budgetText(event.data.oldValue)} → ${budgetText(event.data.newValue)}.`;
    case "refine-feedback":
      return `  Self-Refine feedback (round ${event.data.round})${event.data.stop ? " — nothing left to fix" : ""}: ${clip(event.data.text, MAX_OBSERVATION_CHARS)}`;
    case "refine-answer":
      return `  Refined answer (round ${event.data.round}):\n${indent(event.data.text)}`;
    case "memory-carried-in":
      if (event.data.note) return `Warm start: nothing carried in — ${event.data.note}.`;
      return `Warm start: ${event.data.entries.length} reflection(s) carried in from memory store ${event.data.store}${event.data.entries.map((entry) => `\n  - ${clip(entry.text, MAX_OBSERVATION_CHARS)} (run ${entry.source.runId.slice(0, 8)}, trial ${entry.source.trial})`).join("")}`;
    case "insights-carried-in":
      if (event.data.entries.length === 0) return `Insights: none carried in — ${event.data.note ?? "the store holds none"}.`;
      return `Insights: ${event.data.entries.length} carried in from memory store ${event.data.store}${event.data.entries.map((entry) => `\n  - ${clip(entry.text, MAX_OBSERVATION_CHARS)}${entry.provenance ? ` (${entry.provenance.model}, ${entry.provenance.template.id} v${entry.provenance.template.version})` : ""}`).join("")}`;
    case "run-error":
      return `Run error: ${event.data.message}`;
    case "tree-select":
      return `  Tree: selected ${event.data.path.join(" → ")} (UCT, w = ${event.data.exploration})`;
    case "tree-node": {
      const same = event.data.duplicateCallIds.length > 0 ? ` (+${event.data.duplicateCallIds.length} identical sample(s))` : "";
      return `  Tree: ${event.data.node} under ${event.data.parent}: ${clip(event.data.actionText, MAX_OBSERVATION_CHARS) || "(no action)"} → ${clip(event.data.observation, MAX_OBSERVATION_CHARS)}${same}`;
    }
    case "tree-value":
      return `  Tree: value of ${event.data.node} = ${event.data.value === null ? "none" : event.data.value.toFixed(2)}${event.data.warning ? ` (${event.data.warning})` : ""}`;
    case "tree-follow":
      return `  Tree: trial ${event.data.trial} follows ${event.data.path.join(" → ")}, then rolls out`;
    case "tree-focus":
      return `Tree: the search is focused on ${event.data.node}: later selections start there${event.data.note ? ` (${event.data.note})` : ""}`;
    case "tree-backprop":
      return `  Tree: reward ${event.data.reward} backpropagated along ${event.data.path.length} node(s)`;
    default:
      return null;
  }
}

/** A budget in words: `$0.05 / 20,000 tokens`, or `none`. */
function budgetText(budget: { usd?: number; tokens?: number } | null): string {
  if (!budget) return "none";
  return [budget.usd !== undefined ? `$${budget.usd}` : null, budget.tokens !== undefined ? `${budget.tokens.toLocaleString("en-US")} tokens` : null].filter((part) => part !== null).join(" / ");
}
