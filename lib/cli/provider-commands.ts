import type { Command } from "commander";
import { providerIdSchema, type ProviderStatus, type ProvidersResponse } from "@/lib/domain/providers";
import { providerStatuses } from "@/lib/llm/providers/status";
import { testProviderConnection } from "@/lib/llm/providers/test-connection";
import { DEMO_MODEL_NOTE } from "@/lib/domain/model-id";

/**
 * `cli providers [--json] [--test <provider>] [--model <id>]`: what the
 * settings page shows — each provider configured or not, the variables (names and
 * whether set, never values), base URL, models — and optionally one tiny test call.
 * Reads the same environment the web server would (`process.env`).
 */

/** The human-readable lines of one provider. */
export function providerLines(provider: ProviderStatus): string[] {
  const vars = provider.envVars.map((v) => `${v.name}${v.set ? " (set)" : v.required ? " (not set)" : " (optional, not set)"}`).join(", ");
  const models = provider.models.length === 0 ? "none" : `${provider.models.map((m) => m.id).join(", ")} [${provider.modelsSource}]`;
  return [
    `${provider.label}: ${provider.configured ? "configured" : "not configured"}`,
    `  ${provider.summary}`,
    `  variables: ${vars}`,
    `  base URL: ${provider.baseUrl ?? "—"}${provider.baseUrlIsDefault ? " (default)" : ""}`,
    `  models: ${models}`,
    ...(provider.modelsError ? [`  model list: ${provider.modelsError}`] : []),
    `  caching: ${provider.caching}`,
  ];
}

/** The whole report as text (the settings page's content). */
export function providersReport(response: ProvidersResponse): string {
  const configured = response.providers.filter((p) => p.configured).length;
  const lines = response.providers.flatMap((p) => [...providerLines(p), ""]);
  lines.push(`${configured} of ${response.providers.length} providers configured. The demo model (${DEMO_MODEL_NOTE}) always works.`);
  if (configured === 0) lines.push(response.envFileHint);
  return `${lines.join("\n")}\n`;
}

/** Registers `providers`. */
export function registerProviderCommands(program: Command): void {
  program
    .command("providers")
    .description("Show the model providers as the settings page does: configured or not, the variables to set, base URL, models (never a key).")
    .option("--json", "print the settings page's JSON (providersResponseSchema)")
    .option("--fresh", "re-read the providers' model lists")
    .option("--test <provider>", `make one tiny call to this provider (${providerIdSchema.options.join(", ")}) and print its latency or error`)
    .option("--model <id>", "the model --test calls (default: the provider's first)")
    .action(async (options: { json?: boolean; fresh?: boolean; test?: string; model?: string }) => {
      if (options.test !== undefined) {
        const provider = providerIdSchema.safeParse(options.test);
        if (!provider.success) {
          process.stderr.write(`--test: "${options.test}" is not a provider; use one of ${providerIdSchema.options.join(", ")}.\n`);
          process.exitCode = 2;
          return;
        }
        const result = await testProviderConnection(provider.data, process.env, { modelId: options.model });
        if (options.json) process.stdout.write(`${JSON.stringify(result)}\n`);
        else process.stdout.write(result.ok ? `${result.modelId}: OK in ${result.latencyMs} ms\n` : `${result.modelId || provider.data}: failed after ${result.latencyMs} ms: ${result.error}\n`);
        process.exitCode = result.ok ? 0 : 1;
        return;
      }
      const response = await providerStatuses(process.env, { fresh: options.fresh });
      process.stdout.write(options.json ? `${JSON.stringify(response, null, 2)}\n` : providersReport(response));
    });
}
