"use client";

import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import { isStudentPage } from "@/lib/domain/class-rules";

/**
 * Shows `children` except on the students' pages (`/join`, `/class/<id>`): the site header's links
 * and account tools lead a phone nowhere it may go in class LAN mode, and nowhere it needs to.
 */
export function HideOnStudentPages({ children }: { children: ReactNode }) {
  const pathname = usePathname() ?? "/";
  return isStudentPage(pathname) ? null : <>{children}</>;
}
