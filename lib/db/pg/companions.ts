import type { AnnotationStore } from "../annotation-store";
import type { GradeStore } from "../grade-store";
import type { MemoryStoreRepository } from "../memory-store-entries";
import type { OptimisationStore } from "../optimisation-store";
import type { PriceStore } from "../price-store";
import type { SearchIndex } from "../search-index";
import type { ReviewStore } from "../review-store";
import type { TemplateStore } from "../template-store";
import type { PgRunStore } from "./pg-store";
import { PgGradeStore, PgMemoryStoreRepository, PgPriceStore } from "./pg-small-stores";
import { PgOptimisationStore } from "./pg-optimisations";
import { PgSearchIndex } from "./pg-search-index";
import { PgTemplateStore } from "./pg-templates";
import { PgReviewStore } from "./pg-reviews";
import { PgAnnotationStore } from "./pg-annotations";
import { PgSpendingLimitStore } from "./pg-spending-limits";
import type { SpendingLimitStore } from "../spending-limit-store";
import type { AuditStore } from "../audit-store";
import { PgAuditStore } from "./pg-audit";
import type { ClassStore } from "../class-store";
import { PgClassStore } from "./pg-classes";
import type { LessonStore } from "../lesson-store";
import { PgLessonStore } from "./pg-lessons";

/** The stores that live beside a run store in the same PostgreSQL database (shared mode). */
export interface PgCompanionStores {
  templates: TemplateStore;
  prices: PriceStore;
  grades: GradeStore;
  memoryStores: MemoryStoreRepository;
  optimisations: OptimisationStore;
  /** The search index (lib/db/pg/pg-search-index.ts). */
  search: SearchIndex;
  reviews: ReviewStore;
  annotations: AnnotationStore;
  /** Budgets per person and per lab, and the spend ledger (lib/db/pg/pg-spending-limits.ts). */
  spendingLimits: SpendingLimitStore;
  /** The audit log (lib/db/pg/pg-audit.ts). */
  audit: AuditStore;
  /** Class sessions (lib/db/pg/pg-classes.ts). */
  classes: ClassStore;
  /** Lessons written in the app (lib/db/pg/pg-lessons.ts). */
  lessons: LessonStore;
}

/** The template library, price table, human grades, memory stores, optimisations, the search index, review queues, annotations, budgets, the audit log, class sessions and authored lessons on `store`'s database (they wait for its schema check). */
export function pgCompanionStores(store: PgRunStore): PgCompanionStores {
  const db = store.pg.db;
  const ready = () => store.ready();
  return { templates: new PgTemplateStore(db, ready), prices: new PgPriceStore(db, ready), grades: new PgGradeStore(db, ready), memoryStores: new PgMemoryStoreRepository(db, ready), optimisations: new PgOptimisationStore(db, ready), search: new PgSearchIndex(db, ready), reviews: new PgReviewStore(db, ready), annotations: new PgAnnotationStore(db, ready), spendingLimits: new PgSpendingLimitStore(db, ready), audit: new PgAuditStore(db, ready), classes: new PgClassStore(db, ready), lessons: new PgLessonStore(db, ready) };
}
