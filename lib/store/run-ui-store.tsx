"use client";

import { createContext, useContext, useState, type ReactNode } from "react";
import { createStore, useStore, type StoreApi } from "zustand";

/**
 * UI-only state of one run workspace: what is selected and how the panels are
 * laid out. Nothing from the server lives here (that is TanStack Query's job).
 * The store is created per provider, not as a module singleton, so two
 * workspaces (or two tests) never share state.
 */
export interface RunUiState {
  /** Id of the selected graph node (an event id, see lib/graph). */
  selectedNodeId: string | null;
  inspectorOpen: boolean;
  /** Width of the right-hand column (inspector + memory), px. */
  sidePanelWidth: number;
  /** Keep the newest node in view as events arrive. */
  followLive: boolean;
  memoryPanelCollapsed: boolean;
  /** Which tab the lower half of the side column shows: the episodic memory, or the steering edits (prompts, models, next action). */
  sideTab: SideTab;
  /** The small branch tree over the graph is expanded. */
  branchTreeOpen: boolean;
  /**
   * Replay cursor: the graph, memory panel and inspector show `events.slice(0, cursor)` of the
   * branch's log (lib/graph/replay-cursor.ts). `null` = live: the whole log as it grows.
   */
  cursor: number | null;
  /** The replay bar is playing: the cursor advances one event per `REPLAY_PACE_MS / speed`. */
  playing: boolean;
  /** Replay speed, a multiple of the class pace (0.5–4; 1 = one event per 600 ms, components/replay). */
  speed: number;
  /** Graph node ids a lesson step spotlights (drawn with `data-spotlight`); empty outside lessons. */
  spotlight: readonly string[];
  /** Presenter mode (lessons): large type, run controls hidden. */
  presenter: boolean;
  /** Below the `lg` breakpoint (1024 px) the run page shows one pane at a time: the graph, the inspector ("details") or the memory / steer column. */
  mobilePane: MobilePane;
  /** What the run's main area shows: the graph, or the same run as a text transcript (components/transcript). */
  mainView: MainView;
  selectNode: (nodeId: string | null) => void;
  closeInspector: () => void;
  setSidePanelWidth: (width: number) => void;
  setFollowLive: (follow: boolean) => void;
  toggleMemoryPanel: () => void;
  setSideTab: (tab: SideTab) => void;
  setBranchTreeOpen: (open: boolean) => void;
  /** Moves the replay cursor (an event count, clamped by the caller) or returns to live (`null`, also stops playing). */
  setCursor: (cursor: number | null) => void;
  setPlaying: (playing: boolean) => void;
  setSpeed: (speed: number) => void;
  setSpotlight: (nodeIds: readonly string[]) => void;
  setPresenter: (presenter: boolean) => void;
  setMobilePane: (pane: MobilePane) => void;
  setMainView: (view: MainView) => void;
}

export type SideTab = "memory" | "steer";

/** The run page's panes on a narrow screen (see {@link RunUiState.mobilePane}). */
export type MobilePane = "graph" | "details" | "memory";

/** The run's main area: the graph canvas, or the transcript (its text alternative). */
export type MainView = "graph" | "transcript" | "tree";

export const SIDE_PANEL_MIN = 320;
export const SIDE_PANEL_MAX = 760;

/** Creates a fresh store; `initial` overrides defaults (handy in tests). */
export function createRunUiStore(initial: Partial<Pick<RunUiState, "selectedNodeId" | "inspectorOpen" | "sidePanelWidth" | "followLive" | "memoryPanelCollapsed" | "sideTab" | "branchTreeOpen" | "cursor" | "speed" | "spotlight" | "presenter" | "mainView">> = {}): StoreApi<RunUiState> {
  return createStore<RunUiState>()((set) => ({
    selectedNodeId: null,
    inspectorOpen: false,
    sidePanelWidth: 460,
    followLive: true,
    memoryPanelCollapsed: false,
    sideTab: "memory",
    branchTreeOpen: true,
    cursor: null,
    playing: false,
    speed: 1,
    spotlight: [],
    presenter: false,
    mobilePane: "graph",
    mainView: "graph",
    ...initial,
    selectNode: (nodeId) => set({ selectedNodeId: nodeId, inspectorOpen: nodeId !== null }),
    closeInspector: () => set({ inspectorOpen: false, selectedNodeId: null }),
    setSidePanelWidth: (width) => set({ sidePanelWidth: Math.min(SIDE_PANEL_MAX, Math.max(SIDE_PANEL_MIN, Math.round(width))) }),
    setFollowLive: (followLive) => set({ followLive }),
    toggleMemoryPanel: () => set((state) => ({ memoryPanelCollapsed: !state.memoryPanelCollapsed })),
    setSideTab: (sideTab) => set({ sideTab }),
    setBranchTreeOpen: (branchTreeOpen) => set({ branchTreeOpen }),
    setCursor: (cursor) => set(cursor === null ? { cursor, playing: false } : { cursor: Math.max(0, Math.floor(cursor)) }),
    setPlaying: (playing) => set({ playing }),
    setSpeed: (speed) => set({ speed: Math.min(4, Math.max(0.5, speed)) }),
    setSpotlight: (spotlight) => set({ spotlight }),
    setPresenter: (presenter) => set({ presenter }),
    setMobilePane: (mobilePane) => set({ mobilePane }),
    setMainView: (mainView) => set({ mainView }),
  }));
}

const RunUiStoreContext = createContext<StoreApi<RunUiState> | null>(null);

/** Provides one {@link createRunUiStore} store to its subtree. */
export function RunUiStoreProvider({ children }: { children: ReactNode }) {
  const [store] = useState(() => createRunUiStore());
  return <RunUiStoreContext.Provider value={store}>{children}</RunUiStoreContext.Provider>;
}

/** Selects from the nearest run UI store. Pick narrow slices: components re-render when their slice changes. */
export function useRunUiStore<T>(selector: (state: RunUiState) => T): T {
  const store = useContext(RunUiStoreContext);
  if (!store) throw new Error("useRunUiStore must be used inside <RunUiStoreProvider>");
  return useStore(store, selector);
}
