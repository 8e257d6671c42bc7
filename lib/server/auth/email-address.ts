import { AppError } from "@/lib/shared/errors";

/**
 * Normalising the e-mail address of a sign-in request, the same way at every step (rate limit key,
 * next-auth's token identifier, the address confirmed on another device). Follows next-auth 4's own
 * normaliser (NFKC first, then one "@", no quotes, a dotted domain), and lowercases the whole address.
 */

/** The address is not one we send sign-in links to (AppError "bad_request:email", 400). */
const invalidEmail = () => new AppError("bad_request:email", "Enter a valid e-mail address.");

/** RFC 5321's limit on a forward path. */
const MAX_EMAIL_LENGTH = 254;

/** The canonical form of `input`. @throws AppError "bad_request:email" */
export function normalizeEmail(input: string): string {
  const email = input.normalize("NFKC").trim().toLowerCase();
  if (email.length > MAX_EMAIL_LENGTH || /[\s"<>(),;:\\[\]]/.test(email)) throw invalidEmail();
  const parts = email.split("@");
  if (parts.length !== 2) throw invalidEmail();
  const [local, domain] = parts as [string, string];
  if (!local || !/^[^.][^@]*\.[a-z0-9-]{2,}$/.test(domain) || domain.includes("..")) throw invalidEmail();
  return email;
}

/** Domains that deliver every dotted spelling of a local part to one mailbox (Google's documented rule). */
const DOT_BLIND_DOMAINS = new Set(["gmail.com", "googlemail.com"]);

/**
 * The mailbox an already normalised address reaches, as the key of the per-address sign-in limit
 * (plus-address and case variants share one limit). Never used as an identity.
 * - lower-case (normalizeEmail did it);
 * - "+tag" removed from the local part: sub-addressing delivers to the same mailbox at Gmail,
 *   Outlook, iCloud, Fastmail, Proton and most others; merging the rare provider where "+" is a
 *   real character only makes two people share a limit, never an account;
 * - dots removed and googlemail.com read as gmail.com, for those two domains only: Google documents
 *   that dots do not matter there, while elsewhere (e.g. first.last@ at a company) dots tell people
 *   apart, and one person's requests must not use up another's allowance.
 */
export function mailboxKey(email: string): string {
  const at = email.lastIndexOf("@");
  let local = email.slice(0, at).toLowerCase();
  let domain = email.slice(at + 1).toLowerCase();
  const plus = local.indexOf("+");
  if (plus > 0) local = local.slice(0, plus);
  if (DOT_BLIND_DOMAINS.has(domain)) {
    local = local.replaceAll(".", "");
    domain = "gmail.com";
  }
  return `${local}@${domain}`;
}
