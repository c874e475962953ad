import type { Metadata } from "next";
import { TemplateLibrary } from "@/components/templates/template-library";

export const metadata: Metadata = { title: "Prompt templates" };

/** The template library: templates by family × role × strategy, built-ins read-only; fetched client-side through lib/query. */
export default function TemplatesPage() {
  return <TemplateLibrary />;
}
