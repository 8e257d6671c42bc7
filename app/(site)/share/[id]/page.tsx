import type { Metadata } from "next";
import { SharedChat } from "@/components/share/shared-chat";

export const metadata: Metadata = { title: "Shared chat", robots: { index: false, follow: false }, referrer: "no-referrer" };

/**
 * /share/<id>#<key>: a read-only shared chat. The server sends only this
 * shell; the browser fetches the ciphertext (GET /api/shares/{id}) and opens it with the key in the
 * fragment, which the server never receives. Not indexed; calls no one but Hush.
 */
export default async function SharePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <SharedChat id={id} />;
}
