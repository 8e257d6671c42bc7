import "server-only";
import type { Adapter, AdapterAccount, AdapterSession, AdapterUser, VerificationToken } from "next-auth/adapters";
import { getDb } from "@/lib/server/db/client";
import { absoluteEnd, hashSessionToken, idleDeadline, sessionLive } from "@/lib/server/db/sessions";

/**
 * next-auth 4's database adapter over Prisma: session tokens stored hashed, and nothing from the provider kept
 * beyond the link (no tokens, name or picture). E-mail addresses are stored lowercased.
 */

type UserRow = { id: string; email: string | null; emailVerified: Date | null };
const USER_FIELDS = { id: true, email: true, emailVerified: true } as const;

function toAdapterUser(row: UserRow): AdapterUser {
  return { id: row.id, email: row.email ?? "", emailVerified: row.emailVerified, name: null, image: null };
}

const lower = (email: string) => email.trim().toLowerCase();

export function hushAdapter(): Adapter {
  return {
    async createUser(user: Omit<AdapterUser, "id">) {
      const db = await getDb();
      const row = await db.user.create({
        data: { email: user.email ? lower(user.email) : null, emailVerified: user.emailVerified ?? null },
        select: USER_FIELDS,
      });
      return toAdapterUser(row);
    },
    async getUser(id) {
      const db = await getDb();
      const row = await db.user.findUnique({ where: { id }, select: USER_FIELDS });
      return row ? toAdapterUser(row) : null;
    },
    async getUserByEmail(email) {
      const db = await getDb();
      const row = await db.user.findUnique({ where: { email: lower(email) }, select: USER_FIELDS });
      return row ? toAdapterUser(row) : null;
    },
    async getUserByAccount({ provider, providerAccountId }) {
      const db = await getDb();
      const account = await db.account.findUnique({
        where: { provider_providerAccountId: { provider, providerAccountId } },
        select: { user: { select: USER_FIELDS } },
      });
      return account ? toAdapterUser(account.user) : null;
    },
    async updateUser({ id, emailVerified }) {
      // next-auth only updates emailVerified; profile fields are not kept.
      const db = await getDb();
      const row = await db.user.update({
        where: { id },
        data: emailVerified === undefined ? {} : { emailVerified },
        select: USER_FIELDS,
      });
      return toAdapterUser(row);
    },
    async linkAccount(account: AdapterAccount) {
      const db = await getDb();
      await db.account.create({
        data: {
          userId: account.userId,
          type: account.type,
          provider: account.provider,
          providerAccountId: account.providerAccountId,
        },
      });
      return undefined;
    },
    async createSession({ sessionToken, userId }) {
      // The row keeps the idle deadline; the expiry returned for the cookie is the absolute end.
      const db = await getDb();
      const createdAt = new Date();
      const expires = idleDeadline(createdAt, createdAt.getTime());
      await db.session.create({ data: { sessionToken: hashSessionToken(sessionToken), userId, createdAt, expires } });
      return { sessionToken, userId, expires: absoluteEnd(createdAt) };
    },
    async getSessionAndUser(sessionToken) {
      const db = await getDb();
      const row = await db.session.findUnique({
        where: { sessionToken: hashSessionToken(sessionToken) },
        select: { userId: true, expires: true, createdAt: true, user: { select: USER_FIELDS } },
      });
      if (!row) return null;
      // Past its absolute end a session reads as expired.
      if (!sessionLive(row)) return { session: { sessionToken, userId: row.userId, expires: new Date(0) }, user: toAdapterUser(row.user) };
      const session: AdapterSession = { sessionToken, userId: row.userId, expires: row.expires };
      return { session, user: toAdapterUser(row.user) };
    },
    async updateSession({ sessionToken, expires }) {
      const db = await getDb();
      const hashed = hashSessionToken(sessionToken);
      const current = await db.session.findUnique({ where: { sessionToken: hashed }, select: { createdAt: true } });
      if (!current) return null;
      const capped = expires ? new Date(Math.min(expires.getTime(), absoluteEnd(current.createdAt).getTime())) : undefined;
      const { count } = await db.session.updateMany({
        where: { sessionToken: hashed },
        data: capped ? { expires: capped } : {},
      });
      if (!count) return null;
      const row = await db.session.findUnique({ where: { sessionToken: hashed }, select: { userId: true, expires: true } });
      return row ? { sessionToken, userId: row.userId, expires: row.expires } : null;
    },
    async deleteSession(sessionToken) {
      const db = await getDb();
      const hashed = hashSessionToken(sessionToken);
      const row = await db.session.findUnique({ where: { sessionToken: hashed }, select: { userId: true } });
      await db.session.deleteMany({ where: { sessionToken: hashed } });
      return row ? ({ userId: row.userId } as AdapterSession) : null;
    },
    async createVerificationToken(token: VerificationToken) {
      const db = await getDb();
      await db.verificationToken.deleteMany({ where: { expires: { lt: new Date() } } });
      await db.verificationToken.create({ data: token });
      return token;
    },
    async useVerificationToken({ identifier, token }) {
      // Delete-and-return in one statement: of two concurrent uses of one link, one wins.
      const db = await getDb();
      const rows = await db.$queryRaw<VerificationToken[]>`
        DELETE FROM verification_tokens WHERE identifier = ${identifier} AND token = ${token}
        RETURNING identifier, token, expires`;
      return rows[0] ?? null;
    },
  };
}
