export { MemoryPanel } from "./memory-panel";
