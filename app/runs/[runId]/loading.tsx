import { Spinner } from "@/components/ui/spinner";

export default function Loading() {
  return (
    <div className="flex flex-1 items-center justify-center gap-2 text-sm text-slate-600">
      <Spinner /> Loading the run…
    </div>
  );
}
