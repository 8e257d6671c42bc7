import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getPlan, getSubscription } from "@/lib/server/plans";
import { setManualPro } from "@/lib/server/manual-plan";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { createTestUser } from "../helpers/auth";

/** `npm run plan -- grant|revoke <email>` (lib/server/manual-plan.ts) against the real database. */
let t: TestDb;
beforeAll(async () => {
  t = await setupTestDb();
});
afterAll(async () => {
  await t.cleanup();
});

describe("Pro by hand", () => {
  it("grants and revokes Pro by e-mail address (any case)", async () => {
    const u = await createTestUser("onprem@example.com");
    expect(await getPlan(u.id)).toBe("Free");
    await setManualPro("OnPrem@Example.com", true);
    expect(await getSubscription(u.id)).toEqual({ plan: "Pro", status: "active", current_period_end: null, cancel_at_period_end: false });
    await setManualPro("onprem@example.com", false);
    expect(await getSubscription(u.id)).toMatchObject({ plan: "Free", status: "inactive" });
  });

  it("refuses an unknown address and a user billed through Stripe", async () => {
    await expect(setManualPro("nobody@example.com", true)).rejects.toMatchObject({ code: "not_found:user" });
    const u = await createTestUser("stripe-user@example.com");
    await t.db.subscription.create({ data: { userId: u.id, status: "active", stripeCustomerId: "cus_1", stripeSubscriptionId: "sub_1" } });
    await expect(setManualPro("stripe-user@example.com", false)).rejects.toMatchObject({ code: "conflict:stripe_managed" });
    expect(await getPlan(u.id)).toBe("Pro");
  });
});
