import { AppError } from "@/lib/shared/errors";

/** A sign-in address normalised the same way at every step (next-auth 4's rule, NFKC, then lowercased). */

const invalidEmail = () => new AppError("bad_request:email", "Enter a valid e-mail address.");

/** RFC 5321's limit on a forward path. */
const MAX_EMAIL_LENGTH = 254;

/** @throws AppError "bad_request:email" */
export function normalizeEmail(input: string): string {
  const email = input.normalize("NFKC").trim().toLowerCase();
  if (email.length > MAX_EMAIL_LENGTH || /[\s"<>(),;:\\[\]]/.test(email)) throw invalidEmail();
  const parts = email.split("@");
  if (parts.length !== 2) throw invalidEmail();
  const [local, domain] = parts as [string, string];
  if (!local || !/^[^.][^@]*\.[a-z0-9-]{2,}$/.test(domain) || domain.includes("..")) throw invalidEmail();
  return email;
}

/** Google's documented rule: dots do not matter. */
const DOT_BLIND_DOMAINS = new Set(["gmail.com", "googlemail.com"]);

/**
 * The mailbox an address reaches, as the per-address sign-in limit's key (never an identity): "+tag" removed, and
 * dots removed for DOT_BLIND_DOMAINS only (elsewhere dots tell people apart).
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
