import type { Metadata } from "next";
import { cookies } from "next/headers";
import { AppSignupPanel } from "@/components/auth/appsignup-panel";
import { getConfig } from "@/lib/server/config";
import { desktopDeepLink, handoffCookieName, openHandoff } from "@/lib/server/auth/desktop";

export const metadata: Metadata = {
  title: "Sign In",
  robots: { index: false, follow: false },
};

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const one = (value: string | string[] | undefined) => (typeof value === "string" && value ? value : null);

/** /appsignup (docs/product.md §2); ?handoff=1 turns the sealed ID-token cookie into the desktop deep link. */
export default async function AppSignupPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  let deepLink: string | null = null;
  let error = one(params.error);
  if (params.handoff === "1") {
    const idToken = await openHandoff((await cookies()).get(handoffCookieName())?.value);
    if (idToken) deepLink = desktopDeepLink(idToken);
    else error ??= "HandoffExpired";
  }
  return (
    <AppSignupPanel
      idToken={one(params.idToken)}
      deepLink={deepLink}
      initialError={error}
      googleEnabled={getConfig().googleSignIn}
    />
  );
}
