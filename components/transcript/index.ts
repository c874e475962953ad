export { RunMainViews } from "./run-main-views";
export { RunTranscript } from "./run-transcript";
