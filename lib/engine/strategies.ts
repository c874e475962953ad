/**
 * The memory strategies' behaviour lives in lib/domain/strategies.ts, where the
 * UI can read it too (DESIGN.md §8 "A rule lives in one place"); the engine
 * re-exports it under its old path.
 */
export { strategyBehaviour, supportedStrategiesOf, type StrategyBehaviour } from "@/lib/domain/strategies";
