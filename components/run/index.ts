export { RunWorkspace } from "./run-workspace";
