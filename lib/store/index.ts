export { createRunUiStore, RunUiStoreProvider, SIDE_PANEL_MAX, SIDE_PANEL_MIN, useRunUiStore, type RunUiState } from "./run-ui-store";
