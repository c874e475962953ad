export { HelpLink } from "./help-link";
export { HowToLink } from "./how-to-link";
