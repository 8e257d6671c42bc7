import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignupPanel } from "@/components/auth/signup-panel";
import { getConfig } from "@/lib/server/config";
import { getPageUser } from "@/lib/server/auth/session";

export const metadata: Metadata = {
  title: "Sign Up",
  description: "Sign up to Hush with an e-mail link or Google to save your encrypted chat history.",
  robots: { index: false, follow: false },
};

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const one = (value: string | string[] | undefined) => (typeof value === "string" && value ? value : null);

/** /signup (docs/product.md §2): a signed-in user goes to /chat, unless a sign-in is finishing here or an error shows. */
export default async function SignupPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const token = one(params.token);
  const error = one(params.error);
  const user = await getPageUser();
  const complete = params.complete === "1";
  if (user && !token && !complete && !error) redirect("/chat");
  return (
    <section className="flex flex-1 items-center justify-center bg-gradient-to-b from-brand-50 via-white to-white px-4 py-10 sm:py-20">
      <SignupPanel
        token={token}
        complete={complete && user !== null}
        initialError={error ?? (complete && !user ? "Callback" : null)}
        googleEnabled={getConfig().googleSignIn}
        reason={params.reason === "limit" ? "limit" : null}
      />
    </section>
  );
}
