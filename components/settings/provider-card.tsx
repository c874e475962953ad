"use client";

import { useId, useState } from "react";
import type { ProviderStatus } from "@/lib/domain/providers";
import { useTestProvider } from "@/lib/query/provider-queries";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";

const SOURCE_LABELS: Record<ProviderStatus["modelsSource"], string> = {
  listed: "listed by the provider",
  curated: "suggested (the provider's list was not read)",
  env: "from OPENAI_COMPATIBLE_MODEL",
  none: "none",
};

/**
 * One provider on the settings page: a configured / not configured pill, the variables
 * to set (names and whether set — never values), the base URL, the models it offers,
 * its prompt caching, and "Test connection" (one tiny call: latency in ms, or the error).
 */
export function ProviderCard({ provider }: { provider: ProviderStatus }) {
  const headingId = useId();
  const pickerId = useId();
  const [modelId, setModelId] = useState<string>(provider.models[0]?.id ?? "");
  const test = useTestProvider();
  const result = test.data && test.data.provider === provider.id ? test.data : null;

  return (
    <article aria-labelledby={headingId} data-testid={`provider-${provider.id}`} className="min-w-0 rounded-md border border-slate-200 p-3 [overflow-wrap:anywhere]">
      <header className="flex flex-wrap items-center gap-2">
        <h3 id={headingId} className="text-sm font-semibold text-slate-900">
          {provider.label}
        </h3>
        <Badge tone={provider.configured ? "green" : "neutral"} data-testid="provider-status">
          {provider.configured ? "Configured" : "Not configured"}
        </Badge>
      </header>
      <p className="mt-1 text-xs text-slate-600">{provider.summary}</p>

      <dl className="mt-2 grid grid-cols-[max-content_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs [overflow-wrap:anywhere]">
        <dt className="text-slate-500">Variables</dt>
        <dd>
          <ul className="flex flex-wrap gap-1.5">
            {provider.envVars.map((v) => (
              <li key={v.name}>
                <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[11px] text-slate-800">{v.name}</code>{" "}
                <span className={v.set ? "text-green-700" : "text-slate-500"}>
                  {v.set ? "set" : "not set"}
                  {v.required ? "" : " (optional)"}
                </span>
              </li>
            ))}
          </ul>
        </dd>
        <dt className="text-slate-500">Base URL</dt>
        <dd className="font-mono text-[11px] text-slate-800" data-testid="provider-base-url">
          {provider.baseUrl ?? "—"}
          {provider.baseUrlIsDefault ? <span className="ml-1 font-sans text-slate-500">(default)</span> : null}
        </dd>
        <dt className="text-slate-500">Models</dt>
        <dd data-testid="provider-models">
          {provider.models.length === 0 ? (
            <span className="text-slate-500">None yet{provider.configured ? "" : " — configure the provider first"}.</span>
          ) : (
            <>
              <span className="text-slate-500">{SOURCE_LABELS[provider.modelsSource]}: </span>
              {provider.models.slice(0, 12).map((m, i) => (
                <span key={m.id}>
                  {i > 0 ? ", " : ""}
                  <code className="font-mono text-[11px]">{m.model}</code>
                </span>
              ))}
              {provider.models.length > 12 ? <span className="text-slate-500"> and {provider.models.length - 12} more</span> : null}
            </>
          )}
          {provider.modelsError ? <p className="mt-0.5 text-amber-800">Model list: {provider.modelsError}</p> : null}
        </dd>
        <dt className="text-slate-500">Caching</dt>
        <dd className="text-slate-700">{provider.caching}</dd>
      </dl>

      {provider.configured ? (
        <div className="mt-3 flex flex-wrap items-center gap-2">
          {provider.models.length > 1 ? (
            <>
              <label htmlFor={pickerId} className="text-xs text-slate-600">
                Model
              </label>
              <select
                id={pickerId}
                value={modelId}
                onChange={(e) => setModelId(e.target.value)}
                className="h-7 rounded-md border border-slate-300 bg-white px-1.5 text-xs"
              >
                {provider.models.map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.model}
                  </option>
                ))}
              </select>
            </>
          ) : null}
          <Button
            size="sm"
            data-testid="provider-test"
            disabled={test.isPending}
            onClick={() => test.mutate({ provider: provider.id, modelId: modelId || undefined })}
            title="Makes one tiny call (at most 5 output tokens) and shows its latency or error"
          >
            {test.isPending ? <Spinner className="size-3" label="Testing" /> : null}
            Test connection
          </Button>
          {result ? (
            result.ok ? (
              <span className="text-xs text-green-800" data-testid="provider-test-result" role="status">
                OK in {result.latencyMs} ms ({result.modelId}){result.replyPreview ? ` — “${result.replyPreview}”` : ""}
              </span>
            ) : (
              <span className="text-xs text-red-800" data-testid="provider-test-result" role="alert">
                Failed after {result.latencyMs} ms: {result.error}
              </span>
            )
          ) : null}
        </div>
      ) : null}
      {test.error ? (
        <Notice tone="error" className="mt-2">
          The test could not be sent: {test.error.message}
        </Notice>
      ) : null}
    </article>
  );
}
