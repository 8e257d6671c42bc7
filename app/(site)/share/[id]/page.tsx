import type { Metadata } from "next";
import { SharedChat } from "@/components/share/shared-chat";

export const metadata: Metadata = { title: "Shared chat", robots: { index: false, follow: false }, referrer: "no-referrer" };

/** /share/<id>#<key>: only a shell; the browser opens the ciphertext with the fragment's key, never sent to the server. */
export default async function SharePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <SharedChat id={id} />;
}
