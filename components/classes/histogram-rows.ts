/** One bar of a class's answer histogram: the choice's 1-based number, label, count and share. */
export interface HistogramRow {
  id: string;
  /** 1-based, as the choices are numbered on the phones. */
  number: number;
  label: string;
  count: number;
  /** Share of all answers, whole percent (0 when nobody answered). */
  percent: number;
  /** The right answer (after the reveal). */
  right: boolean;
}

/**
 * The histogram's rows in the question's choice order: a choice nobody picked has count 0; counts
 * for ids the question does not have are ignored. Pure.
 */
export function histogramRows(choices: ReadonlyArray<{ id: string; label: string }>, counts: Readonly<Record<string, number>>, answerId: string | null): HistogramRow[] {
  const total = choices.reduce((sum, choice) => sum + (counts[choice.id] ?? 0), 0);
  return choices.map((choice, index) => {
    const count = counts[choice.id] ?? 0;
    return { id: choice.id, number: index + 1, label: choice.label, count, percent: total === 0 ? 0 : Math.round((count / total) * 100), right: choice.id === answerId };
  });
}
