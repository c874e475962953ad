import fs from "node:fs";

/**
 * A synthetic OTLP JSON-lines file of tool-using agent traces (OpenInference attributes), for the
 * bounded-memory test and the trace-import bench: `traces` traces of `1 + 2 × turns + 1` spans each
 * (an AGENT root, an LLM and a TOOL span per turn, an EVALUATOR), each trace written over two lines
 * as an exporter's batches would be — its turns first, then the EVALUATOR and the root (a root
 * span ends, and is exported, last). Written line by line, so the file never sits in memory whole.
 */
export function writeSyntheticOtlpFile(file: string, options: { traces: number; turns: number }): { spans: number; lines: number } {
  const fd = fs.openSync(file, "w");
  const attr = (key: string, value: string | number) => ({ key, value: typeof value === "number" ? { intValue: String(value) } : { stringValue: value } });
  const t0 = 1_764_900_000_000;
  let spans = 0;
  try {
    for (let index = 0; index < options.traces; index += 1) {
      const traceId = index.toString(16).padStart(32, "0");
      const root = `${index.toString(16).padStart(12, "0")}0000`;
      const start = t0 + index * 10_000;
      const ns = (ms: number) => `${ms}000000`;
      const question = `Question ${index}: what is ${index} + ${index}?`;
      const children = [];
      for (let turn = 0; turn < options.turns; turn += 1) {
        const at = start + 10 + turn * 100;
        children.push({
          traceId,
          spanId: `${index.toString(16).padStart(12, "0")}${(turn * 2 + 1).toString(16).padStart(4, "0")}`,
          parentSpanId: root,
          name: "ChatOpenAI",
          kind: 3,
          startTimeUnixNano: ns(at),
          endTimeUnixNano: ns(at + 40),
          attributes: [
            attr("openinference.span.kind", "LLM"),
            attr("llm.model_name", "gpt-4o-mini"),
            attr("llm.provider", "openai"),
            attr("llm.input_messages.0.message.role", "user"),
            attr("llm.input_messages.0.message.content", question),
            attr("llm.output_messages.0.message.role", "assistant"),
            attr("llm.output_messages.0.message.content", `Turn ${turn}: I will use the calculator.`),
            attr("llm.output_messages.0.message.tool_calls.0.tool_call.function.name", "calculator"),
            attr("llm.token_count.prompt", 50 + turn),
            attr("llm.token_count.completion", 12),
          ],
        });
        children.push({
          traceId,
          spanId: `${index.toString(16).padStart(12, "0")}${(turn * 2 + 2).toString(16).padStart(4, "0")}`,
          parentSpanId: root,
          name: "calculator",
          kind: 1,
          startTimeUnixNano: ns(at + 50),
          endTimeUnixNano: ns(at + 90),
          attributes: [attr("openinference.span.kind", "TOOL"), attr("tool.name", "calculator"), attr("input.value", `{"expression": "${index} + ${index}"}`), attr("output.value", String(index * 2))],
        });
      }
      const end = start + 10 + options.turns * 100 + 20;
      const evaluator = {
        traceId,
        spanId: `${index.toString(16).padStart(12, "0")}ffff`,
        parentSpanId: root,
        name: "exact_match",
        kind: 1,
        startTimeUnixNano: ns(end - 10),
        endTimeUnixNano: ns(end - 5),
        attributes: [attr("openinference.span.kind", "EVALUATOR"), attr("output.value", JSON.stringify({ score: index % 3 === 0 ? 0 : 1, label: index % 3 === 0 ? "incorrect" : "correct" }))],
      };
      const agent = {
        traceId,
        spanId: root,
        name: "calculator-agent",
        kind: 1,
        startTimeUnixNano: ns(start),
        endTimeUnixNano: ns(end),
        attributes: [attr("openinference.span.kind", "AGENT"), attr("agent.name", "calculator-agent"), attr("input.value", question), attr("output.value", String(index * 2))],
      };
      const request = (list: unknown[]) => JSON.stringify({ resourceSpans: [{ resource: { attributes: [attr("service.name", "synthetic-agent")] }, scopeSpans: [{ scope: { name: "synthetic" }, spans: list }] }] });
      fs.writeSync(fd, `${request(children)}\n${request([evaluator, agent])}\n`);
      spans += children.length + 2;
    }
  } finally {
    fs.closeSync(fd);
  }
  return { spans, lines: options.traces * 2 };
}
