export { createRunUiStore, RunUiStoreProvider, SIDE_PANEL_MAX, SIDE_PANEL_MIN, useRunUiStore, type MobilePane, type RunUiState, type SideTab } from "./run-ui-store";
