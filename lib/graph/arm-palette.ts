/**
 * Colours and dash patterns of the arms' lines and swatches, shared by the results page
 * (components/experiments/labels.tsx) and the exported figures (./experiment-figures.ts): a line is
 * told apart by its dash and its label too, never by colour alone.
 */
export const ARM_STYLES: ReadonlyArray<{ color: string; dash: string | undefined; name: string }> = [
  { color: "#64748b", dash: "6 4", name: "dashed grey" },
  { color: "#0369a1", dash: undefined, name: "solid blue" },
  { color: "#b45309", dash: "2 3", name: "dotted amber" },
  { color: "#7c3aed", dash: "10 3 2 3", name: "dash-dot violet" },
  { color: "#15803d", dash: "12 4", name: "long-dash green" },
  { color: "#be123c", dash: "4 2", name: "short-dash red" },
  { color: "#0f766e", dash: "1 2", name: "fine-dotted teal" },
  { color: "#1e293b", dash: "8 2 2 2 2 2", name: "dash-dot-dot black" },
];

/** The style of arm `index` (wraps around after eight). */
export function armStyle(index: number) {
  return ARM_STYLES[index % ARM_STYLES.length]!;
}
