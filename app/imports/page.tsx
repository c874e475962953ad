import type { Metadata } from "next";
import { ImportPage } from "@/components/imports";

export const metadata: Metadata = { title: "Import the paper's runs" };

/** `/imports`: import the Reflexion authors' published run logs (shared folder or upload). */
export default function Page() {
  return <ImportPage />;
}
