export { InspectorPanel } from "./inspector-panel";
