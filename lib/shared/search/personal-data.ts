// The personal-data check on model-written search queries (docs/issues.md #54): an e-mail, phone, card (Luhn) or
// IBAN (mod 97) is held back unless the user's own latest message holds that same item.

export type PersonalDataKind = "email" | "phone" | "card" | "iban";

export const PERSONAL_DATA_LABEL: Record<PersonalDataKind, string> = {
  email: "an e-mail address",
  phone: "a phone number",
  card: "a payment card number",
  iban: "a bank account number (IBAN)",
};

const EMAIL = /[^\s@<>()"',;]+@[^\s@<>()"',;]+\.[a-z]{2,}/gi;
// Seven to fifteen digits (E.164's most), with the separators people type.
const PHONE = /(?<![\w+])\+?\d[\d ().-]{5,18}\d(?!\w)/g;
const CARD = /(?<!\d)\d(?:[ -]?\d){12,18}(?!\d)/g;
const IBAN = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b/gi;

export function heldBackKind(query: string, userMessage: string): PersonalDataKind | null {
  const allowed = new Set(items(userMessage).map((i) => i.key));
  for (const item of items(query)) if (!allowed.has(item.key)) return item.kind;
  return null;
}

// Cards and IBANs before phones: a card number also looks like a long phone number.
function items(text: string): { kind: PersonalDataKind; key: string }[] {
  const out: { kind: PersonalDataKind; key: string }[] = [];
  for (const m of text.matchAll(EMAIL)) out.push({ kind: "email", key: m[0].toLowerCase() });
  const numbers = new Set<string>();
  for (const m of text.matchAll(CARD)) {
    const digits = m[0].replace(/\D/g, "");
    if (luhn(digits)) {
      out.push({ kind: "card", key: digits });
      numbers.add(digits);
    }
  }
  for (const m of text.matchAll(IBAN)) {
    const compact = m[0].replace(/ /g, "").toUpperCase();
    if (ibanValid(compact)) out.push({ kind: "iban", key: compact.toLowerCase() });
  }
  for (const m of text.matchAll(PHONE)) {
    const digits = m[0].replace(/\D/g, "");
    // A year range ("1990-2020") or a date is not a phone number.
    if (digits.length < 7 || digits.length > 15 || numbers.has(digits) || /^\d{4}([ -/.]\d{2,4})+$/.test(m[0].trim())) continue;
    out.push({ kind: "phone", key: digits });
  }
  return out;
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length >= 13 && sum % 10 === 0;
}

function ibanValid(iban: string): boolean {
  if (iban.length < 15 || iban.length > 34) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (const ch of rearranged) {
    const value = /\d/.test(ch) ? ch : String(ch.charCodeAt(0) - 55);
    for (const digit of value) rest = (rest * 10 + Number(digit)) % 97;
  }
  return rest === 1;
}
