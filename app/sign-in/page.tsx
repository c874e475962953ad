import type { Metadata } from "next";
import { SignInForm } from "@/components/account/sign-in-form";
import { oidcSettings } from "@/lib/auth/sign-in-settings";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

/** `/sign-in` (public): email + password, and the lab's single sign-on when `REFLEXION_OIDC_ISSUER` is set. `?next=` is where to go afterwards. */
export default async function Page({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next } = await searchParams;
  let oidcName: string | null = null;
  try {
    oidcName = oidcSettings(process.env)?.name ?? null;
  } catch {
    oidcName = null;
  }
  return (
    <main className="mx-auto w-full max-w-sm flex-1 space-y-4 px-4 py-10" data-testid="sign-in-page">
      <h1 className="text-lg font-semibold text-slate-900">Sign in</h1>
      <p className="text-sm text-slate-600">This playground is shared by your lab. Sign in with the account an admin made for you.</p>
      <SignInForm next={next} oidcName={oidcName} />
    </main>
  );
}
