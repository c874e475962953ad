import type { Metadata } from "next";
import { TemplateWorkbench } from "@/components/templates/template-workbench";
import { ensureTemplate } from "@/lib/server/page-lookup";

export const metadata: Metadata = { title: "Template editor" };

/** One template: the full-width editor, live preview, version history with labels, diff and A/B. */
export default async function TemplatePage({ params }: { params: Promise<{ templateId: string }> }) {
  const { templateId } = await params;
  await ensureTemplate(templateId);
  return <TemplateWorkbench templateId={decoded(templateId)} />;
}

/** The route param as the template id (ids contain `/`, sent as `%2F`); a param that is not valid percent-encoding is used as it is. */
function decoded(param: string): string {
  try {
    return decodeURIComponent(param);
  } catch {
    return param;
  }
}
