export { SearchTreePanel, type SearchTreePanelProps } from "./search-tree-panel";
export { SearchTree, type SearchTreeProps } from "./search-tree";
export { TreeNodeDetails } from "./tree-node-details";
export { TreeLegend } from "./tree-legend";
export { ForkFromNode } from "./fork-from-node";
