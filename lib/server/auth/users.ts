import "server-only";
import { getDb } from "@/lib/server/db/client";
import type { GoogleIdentity } from "@/lib/server/auth/google-id-token";
import type { StoredSessionUser } from "@/lib/server/db/sessions";

/**
 * Users behind Google identities. An identity is found by its subject (Account provider "google",
 * providerAccountId = sub), never by its e-mail: an address can change hands or change on Google's
 * side, the subject does not. Only a subject seen for the first time looks at the (verified) e-mail,
 * to join the account that signed in by e-mail link with that address, as the web OAuth flow does
 * (allowDangerousEmailAccountLinking in lib/server/auth/options.ts); otherwise a new user is created.
 * Nothing but the e-mail is kept from the profile (no name, no picture).
 */

const USER_FIELDS = { id: true, email: true, deletedAt: true } as const;

/** Prisma's unique-constraint violation: a concurrent request created the same row first. */
function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}

/**
 * The user for a verified Google identity, creating the user and/or the Account link on first use.
 * Safe under concurrent first requests for one subject. Deleted users are returned as they are.
 */
export async function findOrCreateGoogleUser(identity: GoogleIdentity): Promise<StoredSessionUser> {
  const db = await getDb();
  const key = { provider_providerAccountId: { provider: "google", providerAccountId: identity.sub } };
  const linked = await db.account.findUnique({ where: key, select: { user: { select: USER_FIELDS } } });
  if (linked) return linked.user;

  let user = await db.user.findUnique({ where: { email: identity.email }, select: USER_FIELDS });
  if (!user) {
    try {
      user = await db.user.create({ data: { email: identity.email, emailVerified: new Date() }, select: USER_FIELDS });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      user = await db.user.findUnique({ where: { email: identity.email }, select: USER_FIELDS });
      if (!user) throw error;
    }
  }
  try {
    await db.account.create({
      data: { userId: user.id, type: "oauth", provider: "google", providerAccountId: identity.sub },
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const raced = await db.account.findUnique({ where: key, select: { user: { select: USER_FIELDS } } });
    if (!raced) throw error;
    return raced.user;
  }
  return user;
}
