/**
 * Normalising the e-mail address of a sign-in request, the same way at every step (rate limit key,
 * next-auth's token identifier, the address confirmed on another device). Follows next-auth 4's own
 * normaliser (NFKC first, then one "@", no quotes, a dotted domain), and lowercases the whole address.
 */

/** The address is not one we send sign-in links to. */
export class InvalidEmailError extends Error {
  constructor() {
    super("Enter a valid e-mail address.");
    this.name = "InvalidEmailError";
  }
}

/** RFC 5321's limit on a forward path. */
const MAX_EMAIL_LENGTH = 254;

/** The canonical form of `input`. @throws InvalidEmailError */
export function normalizeEmail(input: string): string {
  const email = input.normalize("NFKC").trim().toLowerCase();
  if (email.length > MAX_EMAIL_LENGTH || /[\s"<>(),;:\\[\]]/.test(email)) throw new InvalidEmailError();
  const parts = email.split("@");
  if (parts.length !== 2) throw new InvalidEmailError();
  const [local, domain] = parts as [string, string];
  if (!local || !/^[^.][^@]*\.[a-z0-9-]{2,}$/.test(domain) || domain.includes("..")) throw new InvalidEmailError();
  return email;
}
