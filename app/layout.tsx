import type { Metadata } from "next";
import Link from "next/link";
import { HideOnStudentPages } from "@/components/classes/hide-on-student-pages";
import type { ReactNode } from "react";
import { SiteNav } from "@/components/experiments/site-nav";
import { AccountBadge } from "@/components/account/account-badge";
import { HelpLink } from "@/components/help";
import { Providers } from "@/components/providers";
import { THEME_INIT_SCRIPT, ThemeToggle } from "@/components/theme";
import { TourButton } from "@/components/tour";
import "@xyflow/react/dist/style.css";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Reflexion Playground", template: "%s · Reflexion Playground" },
  description: "Watch, steer and compare Reflexion agents (Shinn et al., NeurIPS 2023): Actor, Evaluator, Self-Reflection and episodic memory, trial by trial.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    // The init script sets class="dark" before hydration: React must not complain that <html>'s class differs.
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* Before first paint: the stored / system theme, so a dark page never flashes light (components/theme). */}
        <script dangerouslySetInnerHTML={{ __html: THEME_INIT_SCRIPT }} />
      </head>
      <body className="flex min-h-full flex-col font-sans">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:shadow">
          Skip to content
        </a>
        {/* The header is inside the query client too: the nav and the account badge ask who is signed in (the Settings link is for admins). */}
        <Providers>
          <header className="flex min-h-11 flex-none flex-wrap items-center gap-x-3 gap-y-1 border-b border-slate-200 bg-white px-4 py-1" data-testid="site-header">
            <Link href="/" className="flex items-center gap-2 rounded text-sm font-semibold text-slate-900" data-tour="home">
              {/* eslint-disable-next-line @next/next/no-img-element -- a 20px static SVG needs no optimisation */}
              <img src="/icon.svg" alt="" width={20} height={20} />
              Reflexion Playground
            </Link>
            {/* The tagline only where the header still fits one row with it (≥ 1536 px); at 1440 px it would push the links onto a second row. */}
            <span className="hidden text-xs text-slate-500 2xl:inline">
              Actor → Evaluator → Self-Reflection → episodic memory, one trial at a time
            </span>
            <HideOnStudentPages>
              <SiteNav />
            </HideOnStudentPages>
            <div className="ml-auto flex flex-none items-center gap-2 sm:ml-0">
              <HideOnStudentPages>
                <AccountBadge />
                <HelpLink />
                <TourButton />
              </HideOnStudentPages>
              <ThemeToggle />
            </div>
          </header>
          <div id="main" className="flex min-h-0 flex-1 flex-col">
            {children}
          </div>
        </Providers>
      </body>
    </html>
  );
}
