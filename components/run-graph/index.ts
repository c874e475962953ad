export { RunGraph } from "./run-graph";
export { ORACLE_EXPLANATION, OracleBadge } from "./nodes/outcome-nodes";
