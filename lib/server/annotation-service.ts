import { currentActor, currentPrincipal, signedInName } from "@/lib/actors/actor-context";
import { roleAtLeast } from "@/lib/domain/roles";
import { randomUUID } from "node:crypto";
import type { AnnotationStore } from "@/lib/db/annotation-store";
import type { RunStore } from "@/lib/db/store";
import { annotatableTypesText, memoryItemsOf, targetOfEvent } from "@/lib/domain/annotation-targets";
import {
  annotationChangeRequestSchema,
  annotationCreateRequestSchema,
  foldAnnotations,
  type Annotation,
  type AnnotationChangeRequest,
  type AnnotationCreateRequest,
  type AnnotationTarget,
} from "@/lib/domain/annotations";
import { AppError } from "@/lib/domain/errors";
import type { RunEvent } from "@/lib/domain/events";
import { asBranchId, asRunId, type BranchId, type RunId } from "@/lib/domain/ids";

/** What a branch sees of a run: its events (root first, shared prefix included) and memory item ids. */
interface BranchView {
  runId: RunId;
  branchId: BranchId;
  events: RunEvent[];
  eventIds: Set<string>;
  memoryItems: ReturnType<typeof memoryItemsOf>;
}

/**
 * People's annotations on a run's nodes (lib/domain/annotations.ts, docs/annotations.md) over an
 * {@link AnnotationStore}. The target of a new annotation is read from the run's log — the event
 * must be one the branch sees, its kind, trial, step and seq are taken from the event (a client
 * cannot set them) — or a memory item of the branch. A reply takes its parent's target. Listing
 * for a branch keeps the annotations whose target event that branch sees, so an annotation on the
 * shared prefix of a fork shows on both, and one on the fork's own events only on the fork.
 * Embedded mode has no accounts: any named author may edit or delete; the log records who did. With
 * sign-in on, the author is the signed-in person whatever the request names (a name typed in cannot
 * impersonate anyone).
 */
/** Who writes: the signed-in person when there is one, else the name the request gives. */
function authorOf(named: string): string {
  return signedInName(currentActor()) ?? named;
}

export class AnnotationService {
  constructor(
    private readonly runs: RunStore,
    /** The annotation log (bundles and OTLP export read it directly). */
    readonly store: AnnotationStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Annotations a branch sees (the root branch when `branchId` is omitted), oldest first, deleted
   * ones included and marked.
   * @throws AppError("not-found") for an unknown run, or a branch of another run.
   */
  async list(runId: string, branchId?: string): Promise<Annotation[]> {
    return (await this.listing(runId, branchId)).annotations;
  }

  /** {@link list} with the run and branch it is for (the root's id when `branchId` is omitted): the route's answer. */
  async listing(runId: string, branchId?: string): Promise<{ runId: string; branchId: string; annotations: Annotation[] }> {
    const view = await this.view(runId, branchId);
    const annotations = foldAnnotations(await this.store.listForRun(view.runId));
    return { runId: view.runId, branchId: view.branchId, annotations: annotations.filter((annotation) => view.eventIds.has(annotation.target.eventId) || view.memoryItems.has(annotation.target.eventId)) };
  }

  /**
   * Adds an annotation (or a reply, with `parentId`) on the node `request.target.eventId` names.
   * @throws AppError("not-found") for an unknown run, branch, node or parent; AppError("invalid-input")
   * for an event that draws no node, or a reply to an annotation the branch does not see.
   */
  async create(runId: string, input: AnnotationCreateRequest): Promise<Annotation> {
    const request = annotationCreateRequestSchema.parse(input);
    const view = await this.view(runId, request.target.branchId);
    let target: AnnotationTarget;
    if (request.parentId !== null) {
      const parent = (await this.list(view.runId, view.branchId)).find((annotation) => annotation.id === request.parentId);
      if (!parent) throw new AppError("not-found", `Run ${view.runId} has no annotation ${request.parentId} on branch ${view.branchId} to reply to; list them with \`cli annotations --run ${view.runId} --branch ${view.branchId}\`.`);
      if (parent.deleted) throw new AppError("conflict", `Annotation ${parent.id} was deleted by ${parent.updatedBy}; reply to another one or add a new note.`);
      target = { ...parent.target, branchId: view.branchId };
    } else target = this.targetIn(view, request.target.eventId, request.target.kind);
    const annotationId = randomUUID();
    await this.store.append({ type: "annotation-add", annotationId, target, parentId: request.parentId, author: authorOf(request.author), content: request.content, origin: null, occurredAt: this.now().toISOString() });
    return this.annotationOf(view.runId, annotationId);
  }

  /**
   * Replaces an annotation's content, or deletes it (`{ delete: true }`); both are appended events.
   * @throws AppError("not-found") for an unknown run or annotation; AppError("conflict") when it is deleted already.
   */
  async change(runId: string, annotationId: string, input: AnnotationChangeRequest): Promise<Annotation> {
    const request = annotationChangeRequestSchema.parse(input);
    const run = await this.runs.getRun(asRunId(runId));
    if (!run) throw new AppError("not-found", `No run ${runId}.`);
    const current = await this.annotationOf(run.id, annotationId);
    // With sign-in on a note is its author's: others may reply, only its author or an admin may change or delete it.
    const me = signedInName(currentActor());
    const principal = currentPrincipal();
    if (me !== null && me !== current.author && !(principal && roleAtLeast(principal.role, "admin"))) {
      throw new AppError("forbidden", `This note is ${current.author}'s: only its author or an admin may change or delete it; reply to it instead.`);
    }
    if (current.deleted) throw new AppError("conflict", `Annotation ${annotationId} was deleted by ${current.updatedBy} at ${current.updatedAt}; nothing was changed.`);
    // Saving the same content again changes nothing: no edit event, no history entry.
    if (request.content && JSON.stringify(request.content) === JSON.stringify(current.content)) return current;
    const occurredAt = this.now().toISOString();
    if (request.delete) await this.store.append({ type: "annotation-delete", annotationId, runId: run.id, author: authorOf(request.author), occurredAt });
    else if (request.content) await this.store.append({ type: "annotation-edit", annotationId, runId: run.id, author: authorOf(request.author), content: request.content, occurredAt });
    return this.annotationOf(run.id, annotationId);
  }

  /**
   * The event at `seq` on a branch (what `cli annotate --seq` names), as an annotation target request.
   * @throws AppError("not-found") when the branch has no event at `seq`.
   */
  async eventAt(runId: string, seq: number, branchId?: string): Promise<{ branchId: string; eventId: string; type: string }> {
    const view = await this.view(runId, branchId);
    const event = view.events.find((candidate) => candidate.seq === seq);
    if (!event) throw new AppError("not-found", `Branch ${view.branchId} of run ${view.runId} has no event at seq ${seq} (it has 1–${view.events.at(-1)?.seq ?? 0}); see them with \`cli events --run ${view.runId}\`.`);
    return { branchId: view.branchId, eventId: event.id, type: event.type };
  }

  private targetIn(view: BranchView, eventId: string, kind: AnnotationTarget["kind"] | undefined): AnnotationTarget {
    const item = view.memoryItems.get(eventId);
    if (item && (kind === "memory-item" || !view.eventIds.has(eventId))) {
      return { runId: view.runId, branchId: view.branchId, eventId, kind: "memory-item", trial: item.trial, step: null, seq: null };
    }
    const event = view.events.find((candidate) => candidate.id === eventId);
    if (!event) throw new AppError("not-found", `Branch ${view.branchId} of run ${view.runId} has no event or memory item ${eventId}; pick a node of that branch.`);
    const target = targetOfEvent(event, view.branchId);
    if (!target) throw new AppError("invalid-input", `Event ${event.seq} is a ${event.type} event, which draws no node; annotate one of: ${annotatableTypesText()}.`);
    return { runId: view.runId, ...target };
  }

  private async annotationOf(runId: string, annotationId: string): Promise<Annotation> {
    const found = foldAnnotations(await this.store.listForRun(runId)).find((annotation) => annotation.id === annotationId);
    if (!found) throw new AppError("not-found", `Run ${runId} has no annotation ${annotationId}; list them with \`cli annotations --run ${runId}\`.`);
    return found;
  }

  private async view(runId: string, branchId?: string): Promise<BranchView> {
    const run = await this.runs.getRun(asRunId(runId));
    if (!run) throw new AppError("not-found", `No run ${runId}.`);
    const branch = await this.runs.getBranch(asBranchId(branchId ?? run.rootBranchId));
    if (!branch || branch.runId !== run.id) throw new AppError("not-found", `Branch ${branchId} is not a branch of run ${run.id}.`);
    // The store's list follows the branch path (lib/db/branch-path.ts): the parent's events up to the fork point, then the branch's own.
    const events = await this.runs.list(run.id, branch.id);
    return { runId: run.id, branchId: branch.id, events, eventIds: new Set(events.map((event) => event.id)), memoryItems: memoryItemsOf(events) };
  }
}
