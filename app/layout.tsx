import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { SiteNav } from "@/components/experiments/site-nav";
import { Providers } from "@/components/providers";
import "@xyflow/react/dist/style.css";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Reflexion Playground", template: "%s · Reflexion Playground" },
  description: "Watch, steer and compare Reflexion agents (Shinn et al., NeurIPS 2023): Actor, Evaluator, Self-Reflection and episodic memory, trial by trial.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="flex min-h-full flex-col font-sans">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:shadow">
          Skip to content
        </a>
        <header className="flex h-11 flex-none items-center gap-3 border-b border-slate-200 bg-white px-4">
          <Link href="/" className="flex items-center gap-2 rounded text-sm font-semibold text-slate-900">
            {/* eslint-disable-next-line @next/next/no-img-element -- a 20px static SVG needs no optimisation */}
            <img src="/icon.svg" alt="" width={20} height={20} />
            Reflexion Playground
          </Link>
          <span className="hidden text-xs text-slate-500 sm:inline">
            Actor → Evaluator → Self-Reflection → episodic memory, one trial at a time
          </span>
          <SiteNav />
        </header>
        <Providers>
          <div id="main" className="flex min-h-0 flex-1 flex-col">
            {children}
          </div>
        </Providers>
      </body>
    </html>
  );
}
