import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { GuideMarkdown } from "@/components/help/guide-markdown";
import { GUIDE_TITLES, isGuideName } from "@/lib/help/help-map";
import { listGuides, readGuide } from "@/lib/server/help-guides";
import { servedHelpImageHref } from "@/lib/server/help-images";

// Every guide is rendered by `next build` (generateStaticParams); any other name is a 404.
export const dynamic = "force-static";
export const dynamicParams = false;

/** One help page per guide in docs/guides. */
export function generateStaticParams(): { guide: string }[] {
  return listGuides().map((guide) => ({ guide }));
}

export async function generateMetadata({ params }: { params: Promise<{ guide: string }> }): Promise<Metadata> {
  const { guide } = await params;
  return { title: isGuideName(guide) ? `Help: ${GUIDE_TITLES[guide]}` : "Help" };
}

/**
 * `/help/<guide>`: the guide docs/guides/<guide>.md, its headings anchored (`#section`), its
 * screenshots served from docs/ by app/help/images.
 */
export default async function Page({ params }: { params: Promise<{ guide: string }> }) {
  const { guide } = await params;
  const markdown = readGuide(guide);
  if (markdown === null) notFound();
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-6">
      <nav aria-label="Help" className="mb-4 text-xs">
        <Link href="/help" className="font-medium text-sky-800 underline">
          All guides
        </Link>
      </nav>
      <article data-testid="help-guide">
        <GuideMarkdown markdown={markdown} imageHref={servedHelpImageHref} />
      </article>
    </div>
  );
}
