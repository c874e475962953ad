"use client";

import { useDeleteTaskSet } from "@/lib/query";

/**
 * "Delete this set" under the task-set picker when an uploaded set is chosen. Asks first; recorded
 * runs keep the tasks they copied, which the question says. On success the picker goes back to the
 * built-in set (`onDeleted`); a refusal is shown in place.
 */
export function DeleteTaskSet({ taskSetId, name, onDeleted }: { taskSetId: string; name: string; onDeleted: () => void }) {
  const remove = useDeleteTaskSet();
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <button
        type="button"
        data-testid="delete-task-set"
        className="text-xs text-red-700 underline decoration-dotted underline-offset-2 hover:text-red-800 disabled:opacity-60"
        disabled={remove.isPending}
        onClick={() => {
          if (!window.confirm(`Delete the uploaded task set "${name}"? Runs already made on it keep their tasks; experiments on it can no longer be resumed.`)) return;
          remove.mutate(taskSetId, { onSuccess: onDeleted });
        }}
      >
        {remove.isPending ? "Deleting…" : "Delete this uploaded set"}
      </button>
      {remove.error ? (
        <span role="alert" className="text-xs text-red-700">
          {remove.error.message}
        </span>
      ) : null}
    </span>
  );
}
