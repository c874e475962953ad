/** Shared classes of the authoring page's form controls (one look for selects, inputs and textareas). */
export const CONTROL = "rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900";
/** A select or one-line input. */
export const SELECT = `${CONTROL} h-8`;
/** A field's label. */
export const LABEL = "text-xs font-medium text-slate-700";
