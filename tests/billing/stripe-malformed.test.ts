import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as webhook } from "@/app/api/stripe/webhook/route";
import { resetConfigForTests } from "../helpers/process-state";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { makeEvent, signEvent, startFakeStripeServer, type FakeStripeServer } from "../helpers/fake-stripe-server";

/**
 * docs/issues.md #10, robustness: an event correctly signed with STRIPE_WEBHOOK_SECRET but whose object is not
 * the shape its type promises answered 500 (and Stripe would retry it for days). It must be 400, with
 * nothing stored; a well-formed event still applies.
 */
const SECRET = "whsec_malformed_0123456789";
let t: TestDb;
let stripe: FakeStripeServer;

beforeAll(async () => {
  stripe = await startFakeStripeServer();
  process.env.STRIPE_SECRET_KEY = "sk_test_fake";
  process.env.STRIPE_WEBHOOK_SECRET = SECRET;
  process.env.STRIPE_API_BASE = stripe.url;
  t = await setupTestDb();
  resetConfigForTests();
});

afterAll(async () => {
  await t.cleanup();
  await stripe.close();
  delete process.env.STRIPE_SECRET_KEY;
  delete process.env.STRIPE_WEBHOOK_SECRET;
  delete process.env.STRIPE_API_BASE;
  resetConfigForTests();
});

function deliver(event: unknown) {
  const { body, signature } = signEvent(event, SECRET);
  return webhook(
    new Request("http://localhost/api/stripe/webhook", {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": signature },
      body,
    }),
  );
}

const malformed: [string, unknown][] = [
  ["a subscription without a customer", makeEvent("customer.subscription.updated", { id: "sub_1", status: "active" })],
  ["a subscription that is a string", makeEvent("customer.subscription.created", "sub_1")],
  ["a subscription with null items", makeEvent("customer.subscription.deleted", { id: "sub_1", customer: null, status: "canceled" })],
  ["metadata that is not strings", makeEvent("customer.subscription.updated", { id: "sub_1", customer: "cus_1", status: "active", metadata: { user_id: 42 } })],
  ["a checkout session whose subscription is a number", makeEvent("checkout.session.completed", { mode: "subscription", subscription: 7 })],
  ["an invoice whose parent is a string", makeEvent("invoice.paid", { parent: "x" })],
  ["an event without an id", { ...makeEvent("invoice.paid", {}), id: undefined }],
  ["an event whose data is null", { ...makeEvent("customer.subscription.updated", {}), data: null }],
  ["an event whose created is a string", { ...makeEvent("customer.subscription.updated", {}), created: "yesterday" }],
];

describe("a correctly signed Stripe event with a malformed object", () => {
  it.each(malformed)("%s: 400, nothing stored", async (_name, event) => {
    const res = await deliver(event);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "Malformed Stripe event." });
    const id = (event as { id?: unknown }).id;
    if (typeof id === "string") expect(await t.db.stripeEvent.findUnique({ where: { id } })).toBeNull();
  });

  it("an event type the app does not handle is still acknowledged (200)", async () => {
    const res = await deliver(makeEvent("customer.created", { id: "cus_x" }));
    expect(res.status).toBe(200);
  });
});
