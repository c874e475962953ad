export { createRunUiStore, RunUiStoreProvider, SIDE_PANEL_MAX, SIDE_PANEL_MIN, useRunUiStore, type MainView, type MobilePane, type RunUiState, type SideTab } from "./run-ui-store";
