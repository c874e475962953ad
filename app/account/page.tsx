import type { Metadata } from "next";
import { AccountPage } from "@/components/account/account-page";

export const metadata: Metadata = { title: "Your account" };

/** `/account`: who you are, your role, sign out, your API tokens. */
export default function Page() {
  return <AccountPage />;
}
