import type { Metadata } from "next";
import { JudgeAgreementView } from "@/components/judge/judge-agreement-view";

export const metadata: Metadata = { title: "Judge agreement" };

/** `/judge`: grade judged open-task trials and see the agreement with the LLM judge; fetched client-side through lib/query. */
export default function JudgePage() {
  return <JudgeAgreementView />;
}
