import type { Metadata } from "next";
import { SettingsPage } from "@/components/settings/settings-page";

export const metadata: Metadata = { title: "Settings" };

/** `/settings`: model providers (and later prices, exports); data fetched client-side from server-only routes that never return a key. */
export default function Page() {
  return <SettingsPage />;
}
