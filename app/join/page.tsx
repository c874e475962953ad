import type { Metadata } from "next";
import { JoinCodeForm } from "@/components/classes/join-code-form";

export const metadata: Metadata = { title: "Join a class" };

/** `/join`: a student types the class's join code. */
export default function Page() {
  return <JoinCodeForm />;
}
