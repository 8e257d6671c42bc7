import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SettingsPanel } from "@/components/settings/settings-panel";
import { ConfidentialProvider } from "@/components/confidential/confidential-context";
import { ShareLinksSection } from "@/components/share/share-links-section";
import { SecuritySection } from "@/components/vault/security-section";
import { confidentialPublicConfig, modelPrivacyLines } from "@/lib/server/llm/confidential-models";
import { getPageUser } from "@/lib/server/auth/session";
import { getSubscription } from "@/lib/server/plans";

export const metadata: Metadata = { title: "Settings", robots: { index: false, follow: false } };

/** /settings (docs/product.md §2): a visitor is sent to /. */
export default async function SettingsPage() {
  const user = await getPageUser();
  if (!user) redirect("/");
  const subscription = await getSubscription(user.id);
  return (
    <ConfidentialProvider value={{ config: confidentialPublicConfig(), privacy: modelPrivacyLines() }}>
      <SettingsPanel
        email={user.email}
        plan={subscription.plan}
        status={subscription.status}
        security={<SecuritySection />}
        shareLinks={<ShareLinksSection />}
      />
    </ConfidentialProvider>
  );
}
