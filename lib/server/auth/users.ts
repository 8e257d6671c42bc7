import "server-only";
import { getDb } from "@/lib/server/db/client";
import type { GoogleIdentity } from "@/lib/server/auth/google-id-token";
import type { StoredSessionUser } from "@/lib/server/db/sessions";

/**
 * Users behind Google identities, found by subject, never by e-mail; a first-seen subject joins the account with
 * its verified e-mail, else a new user is made. Only the e-mail is kept from the profile.
 */

const USER_FIELDS = { id: true, email: true, deletedAt: true } as const;

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}

/** Safe under concurrent first requests for one subject; deleted users are returned as they are. */
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
