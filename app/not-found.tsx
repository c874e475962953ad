import Link from "next/link";
import { EmptyState } from "@/components/ui/notice";

export default function NotFound() {
  return (
    <EmptyState
      title="Page not found"
      action={
        <Link href="/" className="text-sm font-medium text-sky-700 underline">
          Back to the playground
        </Link>
      }
    >
      Nothing lives at this address.
    </EmptyState>
  );
}
