"use client";

import { useQuery } from "@tanstack/react-query";
import type { Template, TemplateVersion } from "@/lib/domain/template-library";
import { baseVersionRef, builtInCounterpart } from "@/lib/query/template-library-view";
import { templateListQuery, templateVersionQuery } from "@/lib/query/template-queries";

/**
 * The version a template is compared with by default (diff, A/B): the
 * version outside the template that its first version was made from, when
 * recorded; else, for a template made here, the newest version of the
 * family × role's built-in; else (a built-in) its own first version.
 * `external`: the version lies outside this template (then `detail` carries
 * its text and template once loaded).
 */
export function useBaseVersion(template: Template, versions: readonly TemplateVersion[]) {
  const own = baseVersionRef(template, versions);
  const ownExternal = own !== null && !versions.some((version) => version.id === own);
  const library = useQuery({ ...templateListQuery(template.family, template.role), enabled: !ownExternal && !template.builtIn });
  const counterpart = ownExternal ? null : builtInCounterpart(library.data?.templates ?? [], template);
  const ref = ownExternal ? own : (counterpart?.latestVersion.id ?? own);
  const external = ref !== null && !versions.some((version) => version.id === ref);
  const detail = useQuery({ ...templateVersionQuery(ref ?? ""), enabled: external });
  return { ref, external, detail };
}
