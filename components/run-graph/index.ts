export { RunGraph } from "./run-graph";
export { ORACLE_EXPLANATION, OracleBadge } from "./nodes/outcome-nodes";
export { FALSE_POSITIVE_EXPLANATION, STATUS_GLYPHS, VerdictBox } from "./nodes/code-nodes";
