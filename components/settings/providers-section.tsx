"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { providersQuery } from "@/lib/query/provider-queries";
import { Button } from "@/components/ui/button";
import { EmptyState, Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { ProviderCard } from "./provider-card";
import { DEMO_MODEL_NOTE } from "@/lib/domain/model-id";

/**
 * The settings page's "Model providers" section: one card per
 * provider from `GET /api/settings/providers`; configured ones first. When none is
 * configured it says which variable to set and where; the demo model (a scripted
 * stand-in) always works.
 */
export function ProvidersSection() {
  const [fresh, setFresh] = useState(false);
  const providers = useQuery(providersQuery(fresh));
  if (providers.isPending) {
    return (
      <p className="flex items-center gap-2 text-sm text-slate-600">
        <Spinner /> Reading the providers&apos; settings and model lists…
      </p>
    );
  }
  if (providers.isError) {
    return (
      <Notice tone="error" title="The provider settings could not be read">
        {providers.error.message} Reload the page; if it persists, check the server&apos;s log.
      </Notice>
    );
  }
  const list = [...providers.data.providers].sort((a, b) => Number(b.configured) - Number(a.configured));
  const configured = list.filter((p) => p.configured).length;
  return (
    <div className="space-y-3" data-testid="providers-section">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-slate-600">
          {configured} of {list.length} providers configured. Keys are read on the server only; this page shows variable names, never their values. The
          demo model ({DEMO_MODEL_NOTE}) works without any.
        </p>
        <Button size="sm" variant="ghost" onClick={() => setFresh(true)} disabled={fresh && providers.isFetching}>
          Re-read model lists
        </Button>
      </div>
      {configured === 0 ? (
        <EmptyState title="No model provider is configured">
          <p>{providers.data.envFileHint}</p>
          <p className="mt-1">
            E.g. <code className="font-mono text-xs">OPENAI_API_KEY=…</code>, <code className="font-mono text-xs">ANTHROPIC_API_KEY=…</code> or{" "}
            <code className="font-mono text-xs">OLLAMA_BASE_URL=http://127.0.0.1:11434</code>.
          </p>
        </EmptyState>
      ) : null}
      <div className="grid gap-3 lg:grid-cols-2">
        {list.map((provider) => (
          <ProviderCard key={provider.id} provider={provider} />
        ))}
      </div>
    </div>
  );
}
