export { BundleDropZone } from "./bundle-drop-zone";
export { BundleList } from "./bundle-list";
export { ShareRunMenu } from "./share-run-menu";
export { SharedBundleView } from "./shared-bundle-view";
