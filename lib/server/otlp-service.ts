import { APP_VERSION } from "@/lib/bundles/codec";
import { findSecrets } from "@/lib/bundles/secret-scan";
import type { AnnotationStore } from "@/lib/db/annotation-store";
import type { RunStore } from "@/lib/db/store";
import { foldAnnotations } from "@/lib/domain/annotations";
import { Pseudonyms, stripAnnotationNames, stripEventNames, type NamesMode } from "@/lib/domain/strip-names";
import { annotationsByBranch } from "@/lib/otel/annotation-events";
import { AppError } from "@/lib/domain/errors";
import { asRunId } from "@/lib/domain/ids";
import { sendOtlp, spansOfBranches, toJsonLines } from "@/lib/otel/export";
import { displayEndpoint, otlpSettings, otlpSettingsView, type OtlpSettingsView } from "@/lib/otel/settings";
import type { BranchLog } from "@/lib/otel/trace-from-log";
import type { EventLog } from "@/lib/engine/ports";
import { withLiveOtlp } from "@/lib/otel/live-export";

/**
 * OpenTelemetry export of runs (docs/decisions/0026): spans built from the event log
 * (lib/otel/trace-from-log.ts) sent as OTLP/HTTP protobuf to the server-side endpoint
 * (`REFLEXION_OTLP_ENDPOINT`, `REFLEXION_OTLP_HEADERS`; lib/otel/settings.ts) or written as OTLP
 * JSON lines. Both outputs are searched for secret-looking environment values first (a hit refuses).
 */
export class OtlpService {
  /** People's annotation log: each annotation becomes a span event (none when not given). */
  private annotations: AnnotationStore | null = null;

  constructor(
    private readonly store: RunStore,
    private readonly env: Record<string, string | undefined>,
  ) {}

  /** Exports runs' annotations as span events (the composition root wires the context's store). */
  useAnnotations(store: AnnotationStore): void {
    this.annotations = store;
  }

  /**
   * Every branch of the run as a {@link BranchLog} (its own events only, with the annotations its trace carries), oldest branch first.
   * `names: "strip"` pseudonymizes every person in them (event actors, annotation authors; lib/domain/strip-names.ts).
   */
  async branchLogs(runId: string, names: NamesMode = "keep"): Promise<BranchLog[]> {
    const run = await this.store.getRun(asRunId(runId));
    if (!run) throw new AppError("not-found", `No run ${runId}.`);
    const logs: BranchLog[] = [];
    for (const branch of await this.store.listBranches(run.id)) {
      const events = (await this.store.list(run.id, branch.id)).filter((event) => event.branchId === branch.id);
      logs.push({
        runId: run.id,
        title: run.title,
        config: run.config,
        branchId: branch.id,
        parentBranchId: branch.parentBranchId,
        forkSeq: branch.forkSeq,
        events,
        sessionId: run.config.cacheScope ?? run.id,
      });
    }
    if (this.annotations) {
      const byBranch = annotationsByBranch(foldAnnotations(await this.annotations.listForRun(run.id)), logs);
      for (const log of logs) log.annotations = byBranch.get(log.branchId) ?? [];
    }
    if (names === "strip") {
      const pseudonyms = new Pseudonyms();
      for (const log of logs) {
        log.events = log.events.map((event) => stripEventNames(event, pseudonyms));
        if (log.annotations) log.annotations = log.annotations.map((annotation) => stripAnnotationNames(annotation, pseudonyms));
      }
    }
    return logs;
  }

  private checked<T>(value: T, text: string): T {
    const findings = findSecrets(text, this.env);
    if (findings.length > 0) throw new AppError("conflict", `OTLP export refused: the spans would contain ${findings.map((finding) => finding.what).join(" and ")}. Nothing was sent or written.`);
    return value;
  }

  /** The run's traces as OTLP JSON lines (one ExportTraceServiceRequest per branch); `names` as for {@link branchLogs}. */
  async jsonLines(runId: string, names: NamesMode = "keep"): Promise<string> {
    const text = toJsonLines(spansOfBranches(await this.branchLogs(runId, names), APP_VERSION));
    return this.checked(text, text);
  }

  /**
   * Sends the run's traces to `endpoint` (the CLI's `--endpoint`) or the configured one, with the
   * configured headers. @throws AppError("invalid-input") when no endpoint is set.
   */
  async send(runId: string, endpoint?: string, names: NamesMode = "keep"): Promise<{ endpoint: string; spans: number; requests: number }> {
    const settings = otlpSettings(this.env);
    const url = endpoint ?? settings.endpoint;
    if (!url) throw new AppError("invalid-input", "No OTLP endpoint is set: start the server with REFLEXION_OTLP_ENDPOINT (e.g. http://127.0.0.1:6006/v1/traces for Phoenix), or give the CLI --endpoint.");
    const traces = spansOfBranches(await this.branchLogs(runId, names), APP_VERSION);
    this.checked(null, toJsonLines(traces));
    try {
      const sent = await sendOtlp(traces, { url, headers: settings.headers });
      return { endpoint: displayEndpoint(url), ...sent };
    } catch (error) {
      throw new AppError("model-call-failed", `Sending to ${displayEndpoint(url)} failed: ${error instanceof Error ? error.message : String(error)}. Check that the collector runs and the endpoint ends in /v1/traces.`);
    }
  }

  /**
   * The engine's event log, wrapped to send spans as they happen when `REFLEXION_OTLP_LIVE=1` and an
   * endpoint is set (lib/otel/live-export.ts); otherwise `log` itself.
   */
  liveLog(log: EventLog): EventLog {
    let settings;
    try {
      settings = otlpSettings(this.env);
    } catch {
      return log;
    }
    const endpoint = settings.endpoint;
    if (!settings.live || !endpoint) return log;
    return withLiveOtlp(log, {
      target: { url: endpoint, headers: settings.headers },
      appVersion: APP_VERSION,
      branchLog: async (runId, branchId) => (await this.branchLogs(runId)).find((candidate) => candidate.branchId === branchId) ?? null,
    });
  }

  /** The settings as the settings page shows them (no header values). */
  settings(): OtlpSettingsView {
    return otlpSettingsView(this.env);
  }
}
