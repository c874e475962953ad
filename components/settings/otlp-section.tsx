"use client";

import { useQuery } from "@tanstack/react-query";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { otlpSettingsViewSchema } from "@/lib/otel/settings";
import { fetchJson } from "@/lib/query/fetch-json";

/**
 * Settings → OpenTelemetry: the OTLP endpoint the server sends runs' traces to, the
 * names of its headers (never their values: a Langfuse key stays on the server) and the live
 * toggle — all set in the server's environment, shown here with how to set them for Phoenix and Langfuse.
 */
export function OtlpSection() {
  const settings = useQuery({ queryKey: ["otlp-settings"], queryFn: ({ signal }) => fetchJson("/api/otlp/settings", otlpSettingsViewSchema, { signal }) });
  return (
    <div className="space-y-3 text-sm text-slate-700" data-testid="otlp-settings">
      <p>
        Runs export as OpenTelemetry traces built from their event log (OpenInference and <code className="font-mono text-xs">gen_ai.*</code> attributes): a run is an AGENT
        span, each trial a CHAIN, each model call an LLM span (marked <code className="font-mono text-xs">live</code> or <code className="font-mono text-xs">cache</code>), each action a
        TOOL span and each verdict an EVALUATOR span. Use <em>Send to OTLP</em> or <em>OTLP file</em> in a run&apos;s header, or{" "}
        <code className="font-mono text-xs">npm run cli -- export-otlp --run &lt;id&gt;</code>.
      </p>
      {settings.isPending ? <Spinner /> : null}
      {settings.isError ? <Notice tone="error">{settings.error.message}</Notice> : null}
      {settings.data ? (
        <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-1 text-xs [overflow-wrap:anywhere]">
          <dt className="font-medium text-slate-900">Endpoint</dt>
          <dd data-testid="otlp-endpoint">{settings.data.endpoint ? <code className="font-mono">{settings.data.endpoint}</code> : <span className="text-slate-500">not set — sending is off; the OTLP file download always works</span>}</dd>
          <dt className="font-medium text-slate-900">Headers</dt>
          <dd data-testid="otlp-headers">{settings.data.headerNames.length > 0 ? settings.data.headerNames.map((name) => <code key={name} className="mr-2 font-mono">{name}: •••</code>) : <span className="text-slate-500">none</span>}</dd>
          <dt className="font-medium text-slate-900">Live tracing</dt>
          <dd>{settings.data.live ? "on — spans are sent as runs record their events" : "off"}</dd>
        </dl>
      ) : null}
      {settings.data?.problem ? <Notice tone="error" title="The OTLP settings are malformed">{settings.data.problem}</Notice> : null}
      <details className="text-xs">
        <summary className="cursor-pointer font-medium text-slate-900">How to set them (server environment, then restart)</summary>
        <ul className="mt-2 list-disc space-y-1 pl-5">
          <li>
            Phoenix: <code className="font-mono">REFLEXION_OTLP_ENDPOINT=http://127.0.0.1:6006/v1/traces</code> (protobuf only; no header needed locally).
          </li>
          <li>
            Langfuse: <code className="font-mono">REFLEXION_OTLP_ENDPOINT=https://cloud.langfuse.com/api/public/otel/v1/traces</code> and{" "}
            <code className="font-mono">REFLEXION_OTLP_HEADERS=Authorization=Basic%20&lt;base64 of public-key:secret-key&gt;,x-langfuse-ingestion-version=4</code>.
          </li>
          <li>
            <code className="font-mono">REFLEXION_OTLP_LIVE=1</code> also sends each run&apos;s spans while it runs.
          </li>
        </ul>
      </details>
    </div>
  );
}
