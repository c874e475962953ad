import type { Metadata } from "next";
import { JoinNicknameForm } from "@/components/classes/join-nickname-form";
import { normaliseJoinCode } from "@/components/classes/join-code";

export const metadata: Metadata = { title: "Join a class" };

/** `/join/<CODE>`: the class a join code opens, and the student's nickname. */
export default async function Page({ params }: { params: Promise<{ code: string }> }) {
  const { code } = await params;
  return <JoinNicknameForm code={normaliseJoinCode(code)} />;
}
