"use client";

import type { ComponentType } from "react";
import { ProvidersSection } from "./providers-section";
import { PriceTableSection } from "./price-table-section";
import { MemoryStoresSection } from "./memory-stores-section";
import { OtlpSection } from "./otlp-section";
import { BudgetsSection } from "./budgets-section";
import { UsersSection } from "./users-section";

/**
 * The settings page's sections, in order. Each is a client component that fetches
 * its own data through lib/query (components never import server code). To add a
 * section (price table, OTLP export…), add one line here.
 */
export interface SettingsSection {
  /** Anchor id (`/settings#<id>`) and the heading's id. */
  id: string;
  title: string;
  Component: ComponentType;
}

export const SETTINGS_SECTIONS: readonly SettingsSection[] = [
  { id: "providers", title: "Model providers", Component: ProvidersSection },
  { id: "prices", title: "Prices", Component: PriceTableSection },
  { id: "budgets", title: "Budgets", Component: BudgetsSection },
  { id: "memory-stores", title: "Memory stores", Component: MemoryStoresSection },
  { id: "otlp", title: "OpenTelemetry export", Component: OtlpSection },
  { id: "users", title: "Users", Component: UsersSection },
];
