import type { Metadata } from "next";
import { BundleList } from "@/components/bundles/bundle-list";

export const metadata: Metadata = { title: "Bundles" };

/** `/bundles`: import a run bundle and the bundles imported here. */
export default function Page() {
  return <BundleList />;
}
