"use client";

/** `href` with `names=strip` added when `strip` (export routes replace people's names with pseudonyms; docs/audit.md). */
export function withNames(href: string, strip: boolean): string {
  return strip ? `${href}${href.includes("?") ? "&" : "?"}names=strip` : href;
}

/**
 * "Strip names" beside an export: when checked, the bundle or trace downloaded names no one — each
 * person who edited or annotated becomes `person 1`, `person 2`, … for that one file.
 */
export function StripNamesToggle({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="inline-flex items-center gap-1 text-[11px] text-slate-700" title="Replace who made each edit and note with pseudonyms (person 1, person 2, …) in the exported file">
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} data-testid="strip-names" />
      Strip names
    </label>
  );
}
