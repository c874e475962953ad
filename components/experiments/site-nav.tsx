"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { meHasRole } from "@/lib/domain/run-permissions";
import { compareHref } from "@/lib/query/compare-params";
import { useMe } from "@/lib/query/me-queries";
import { cn } from "@/lib/utils/cn";

const linkClass = "rounded px-2 py-1 text-xs font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900";

/**
 * The header's links: Runs (home), Experiments, the paper's runs (import), Agent traces (an outside agent's traces),
 * Reflections (that worked / did not help), Templates (the library), Search (every trial), Judge (agreement with the LLM judge), Settings (providers), and on a run page "Compare
 * this run…", which opens the compare view with this run so another run of
 * the same task can be picked beside it.
 */
export function SiteNav() {
  const pathname = usePathname() ?? "/";
  const runMatch = /^\/runs\/([^/]+)/.exec(pathname);
  const runId = runMatch ? decodeURIComponent(runMatch[1]!) : null;
  const inExperiments = pathname.startsWith("/experiments");
  // Settings are for admins (with sign-in off, everyone is the local admin).
  const admin = meHasRole(useMe().data, "admin");
  return (
    <nav
      aria-label="Main"
      className="order-last -mx-1 flex w-full items-center gap-1 overflow-x-auto whitespace-nowrap sm:order-none sm:mx-0 sm:ml-auto sm:w-auto sm:flex-wrap sm:justify-end sm:overflow-visible"
      data-tour="nav"
    >
      <Link href="/" className={cn(linkClass, pathname === "/" && "bg-slate-100 text-slate-900")} aria-current={pathname === "/" ? "page" : undefined}>
        Runs
      </Link>
      <Link
        href="/experiments"
        data-testid="nav-experiments"
        className={cn(linkClass, inExperiments && "bg-slate-100 text-slate-900")}
        aria-current={inExperiments ? "page" : undefined}
      >
        Experiments
      </Link>
      <Link
        href="/imports"
        data-testid="nav-imports"
        className={cn(linkClass, pathname.startsWith("/imports") && "bg-slate-100 text-slate-900")}
        aria-current={pathname.startsWith("/imports") ? "page" : undefined}
        title="Import the Reflexion authors' own run logs (HotpotQA, ALFWorld, programming)"
      >
        Paper&apos;s runs
      </Link>
      <Link
        href="/traces"
        data-testid="nav-traces"
        className={cn(linkClass, pathname.startsWith("/traces") && "bg-slate-100 text-slate-900")}
        aria-current={pathname.startsWith("/traces") ? "page" : undefined}
        title="Import an outside agent's traces (OTLP, Inspect, LangSmith, Langfuse), reflect on its failures, hand the lessons back"
      >
        Agent traces
      </Link>
      <Link
        href="/bundles"
        data-testid="nav-bundles"
        className={cn(linkClass, (pathname.startsWith("/bundles") || pathname.startsWith("/shared")) && "bg-slate-100 text-slate-900")}
        aria-current={pathname.startsWith("/bundles") ? "page" : undefined}
        title="Shared runs: import a run bundle someone exported, see the bundles imported here"
      >
        Shared runs
      </Link>
      <Link
        href="/lessons"
        data-testid="nav-lessons"
        className={cn(linkClass, pathname.startsWith("/lessons") && "bg-slate-100 text-slate-900")}
        aria-current={pathname.startsWith("/lessons") ? "page" : undefined}
        title="Narrated lessons over real runs, with predictions; present them from a clicker"
      >
        Lessons
      </Link>
      <Link
        href="/reflections"
        data-testid="nav-reflections"
        className={cn(linkClass, pathname.startsWith("/reflections") && "bg-slate-100 text-slate-900")}
        aria-current={pathname.startsWith("/reflections") ? "page" : undefined}
        title="Reflections that worked, and that did not help"
      >
        Reflections
      </Link>
      <Link
        href="/templates"
        data-testid="nav-templates"
        className={cn(linkClass, pathname.startsWith("/templates") && "bg-slate-100 text-slate-900")}
        aria-current={pathname.startsWith("/templates") ? "page" : undefined}
        title="The prompt template library: versions, editor with preview and diff, A/B comparisons"
      >
        Templates
      </Link>
      <Link
        href="/search"
        data-testid="nav-search"
        className={cn(linkClass, pathname.startsWith("/search") && "bg-slate-100 text-slate-900")}
        aria-current={pathname.startsWith("/search") ? "page" : undefined}
        title="Search every trial: fields, comparisons and the text of thoughts, actions, observations and reflections"
      >
        Search
      </Link>
      <Link
        href="/judge"
        data-testid="nav-judge"
        className={cn(linkClass, pathname.startsWith("/judge") && "bg-slate-100 text-slate-900")}
        aria-current={pathname.startsWith("/judge") ? "page" : undefined}
        title="Grade judged open-task trials yourself and see how often the LLM judge agrees (Cohen's kappa)"
      >
        Judge
      </Link>
      <Link
        href="/reviews"
        data-testid="nav-reviews"
        className={cn(linkClass, pathname.startsWith("/reviews") && "bg-slate-100 text-slate-900")}
        aria-current={pathname.startsWith("/reviews") ? "page" : undefined}
        title="Review queues: people review reflections against a rubric or two arms side by side; agreement (Cohen's kappa); corrections kept as data"
      >
        Reviews
      </Link>
      {admin ? (
        <Link
          href="/settings"
          data-testid="nav-settings"
          className={cn(linkClass, pathname.startsWith("/settings") && "bg-slate-100 text-slate-900")}
          aria-current={pathname.startsWith("/settings") ? "page" : undefined}
          title="Model providers: which are configured, the variables to set, their models, test connection"
        >
          Settings
        </Link>
      ) : null}
      {runId ? (
        <Link href={compareHref([runId])} data-testid="nav-compare-run" className={cn(linkClass, "border border-slate-300")} title="Put this run beside another run of the same task">
          Compare this run…
        </Link>
      ) : null}
    </nav>
  );
}
