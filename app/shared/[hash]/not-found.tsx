"use client";

import Link from "next/link";
import { useParams } from "next/navigation";
import { EmptyState } from "@/components/ui/notice";

/** `/shared/<hash>` of a bundle not imported here (HTTP 404): how to import it. */
export default function SharedBundleNotFound() {
  const { hash } = useParams<{ hash?: string }>();
  return (
    <main className="mx-auto w-full max-w-3xl px-4 py-8">
      <EmptyState title="This bundle is not in this app yet" action={<Link className="text-sm font-medium text-sky-800 underline" href="/">Go to the home page to import it</Link>}>
        The link names a bundle by its content hash <code className="font-mono text-xs">{(hash ?? "").slice(0, 16)}…</code>. Import the bundle file once (drop it on the home page, or{" "}
        <code className="font-mono text-xs">npm run cli -- import &lt;file&gt;</code>), then open this link again.
      </EmptyState>
    </main>
  );
}
