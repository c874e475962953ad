"use client";

import { useEffect, useRef, type ReactNode } from "react";
import { cn } from "@/lib/utils/cn";

/**
 * A panel anchored under its trigger. Closes on Escape and on a pointer press
 * outside the wrapper. Rendered only while open (no portal: it lives in the
 * header, above the graph).
 */
export function Popover({
  open,
  onClose,
  trigger,
  children,
  align = "right",
  className,
  ...rest
}: {
  open: boolean;
  onClose: () => void;
  trigger: ReactNode;
  children: ReactNode;
  align?: "left" | "right";
  className?: string;
  "data-testid"?: string;
}) {
  const wrapper = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (wrapper.current && event.target instanceof Node && !wrapper.current.contains(event.target)) onClose();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") onClose();
    };
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [open, onClose]);

  return (
    <div ref={wrapper} className="relative">
      {trigger}
      {open ? (
        <div
          role="dialog"
          className={cn(
            "absolute top-full z-30 mt-1.5 rounded-lg border border-slate-200 bg-white p-3 text-xs text-slate-800 shadow-lg",
            align === "right" ? "right-0" : "left-0",
            className,
          )}
          {...rest}
        >
          {children}
        </div>
      ) : null}
    </div>
  );
}
