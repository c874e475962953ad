"use client";

import Link from "next/link";
import { useParams } from "next/navigation";
import { EmptyState } from "@/components/ui/notice";

/** `/templates/<unknown id>` (HTTP 404). */
export default function TemplateNotFound() {
  const { templateId } = useParams<{ templateId?: string }>();
  let id = templateId ?? "";
  try {
    id = decodeURIComponent(id);
  } catch {
    // not percent-encoding: shown as it is
  }
  return (
    <EmptyState
      title="Template not found"
      action={
        <Link href="/templates" className="text-sm font-medium text-sky-700 underline">
          All templates
        </Link>
      }
    >
      No template <code className="font-mono">{id}</code> in this database.
    </EmptyState>
  );
}
