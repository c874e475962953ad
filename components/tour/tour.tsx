"use client";

import { driver, type Driver } from "driver.js";
import "driver.js/dist/driver.css";
import { useCallback, useEffect, useRef } from "react";
import { TOUR_SEEN_KEY, TOUR_STOPS, stepsOnPage } from "./tour-steps";

/** Starts the tour on the current page with driver.js (MIT; teaching-mode.md compares tour libraries). */
function startTour(): Driver {
  const steps = stepsOnPage(TOUR_STOPS, (selector) => document.querySelector(selector)).map((stop) => ({
    ...(stop.selector ? { element: stop.selector } : {}),
    popover: { title: stop.title, description: stop.text },
  }));
  const tour = driver({
    steps,
    showProgress: true,
    allowClose: true,
    allowKeyboardControl: true,
    popoverClass: "reflexion-tour",
    nextBtnText: "Next →",
    prevBtnText: "← Back",
    doneBtnText: "Done",
    overlayOpacity: 0.45,
    // No sliding highlight or smooth scrolling for readers who asked the system for less motion.
    animate: !window.matchMedia("(prefers-reduced-motion: reduce)").matches,
  });
  tour.drive();
  return tour;
}

function seen(): boolean {
  try {
    return window.localStorage.getItem(TOUR_SEEN_KEY) !== null;
  } catch {
    return true;
  }
}

function markSeen() {
  try {
    window.localStorage.setItem(TOUR_SEEN_KEY, new Date().toISOString());
  } catch {
    // Storage blocked: the tour may show again next visit.
  }
}

/**
 * The header's "Tour" button, which also starts the tour once on a first
 * visit (nothing in localStorage under {@link TOUR_SEEN_KEY}). Not on its own
 * in a browser driven by automation (`navigator.webdriver`: end-to-end tests
 * click the button instead) or in presenter mode (`?present=1`).
 */
export function TourButton() {
  const active = useRef<Driver | null>(null);
  const open = useCallback(() => {
    markSeen();
    active.current?.destroy();
    active.current = startTour();
  }, []);

  useEffect(() => {
    if (seen() || navigator.webdriver || new URLSearchParams(window.location.search).get("present") === "1") return;
    // Let the page draw what the tour points at first.
    const timer = window.setTimeout(open, 800);
    return () => window.clearTimeout(timer);
  }, [open]);

  useEffect(() => () => active.current?.destroy(), []);

  return (
    <button
      type="button"
      onClick={open}
      data-testid="tour-button"
      className="rounded px-2 py-1 text-xs font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900"
      title="A one-minute tour of the app (Esc skips it)"
    >
      Tour
    </button>
  );
}
