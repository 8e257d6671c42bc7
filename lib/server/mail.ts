import "server-only";
import nodemailer, { type Transporter } from "nodemailer";
import { getConfig, type Config } from "@/lib/server/config";
import { AppError } from "@/lib/shared/errors";
import { logger } from "@/lib/server/log";

/** Sign-in mail (docs/product.md §4) over SMTP with EMAIL_SERVER; without it the link is logged (never in production). */



let transport: { config: Config; transporter: Transporter } | undefined;

/** Development only: the last link logged per address, taken once so /signup can show it. */
const developmentLinks = new Map<string, string>();

export function takeDevelopmentSignInLink(to: string): string | null {
  if (getConfig().emailDelivery !== "log") return null;
  const url = developmentLinks.get(to) ?? null;
  developmentLinks.delete(to);
  return url;
}

function transporter(config: Config): Transporter {
  if (transport?.config !== config) {
    transport = { config, transporter: nodemailer.createTransport(config.EMAIL_SERVER) };
  }
  return transport.transporter;
}

/** EMAIL_FROM, else "Hush <no-reply@<APP_URL host>>". */
function mailFrom(config: Config = getConfig()): string {
  return config.EMAIL_FROM ?? `Hush <no-reply@${new URL(config.APP_URL).hostname}>`;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** @throws AppError "unavailable:email" (no mail server in production), "upstream:email". */
export async function sendSignInEmail(input: { to: string; url: string; expires: Date }): Promise<void> {
  const config = getConfig();
  const minutes = Math.max(1, Math.round((input.expires.getTime() - Date.now()) / 60_000));
  if (config.emailDelivery === "disabled") throw new AppError("unavailable:email", "E-mail sign-in is not available on this server.");
  if (config.emailDelivery === "log") {
    // Development and tests only: the link is the point of this record.
    logger("mail").info(
      { to: input.to, validMinutes: minutes },
      `DEVELOPMENT: SIGN-IN LINK (not e-mailed: EMAIL_SERVER is unset), valid ${minutes} minutes, once: ${input.url}`,
    );
    developmentLinks.set(input.to, input.url);
    return;
  }
  const host = new URL(config.APP_URL).host;
  const text =
    `Sign in to Hush\n\nOpen this link to sign in to ${host}. It works once and expires in ${minutes} minutes:\n\n` +
    `${input.url}\n\nIf you did not ask for it, ignore this e-mail: nobody can sign in without the link.\n`;
  const html = `<!doctype html><html><body style="margin:0;padding:24px;background:#f6f7f9;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#1b1e26">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">
<table role="presentation" width="480" cellpadding="0" cellspacing="0" style="max-width:480px;background:#fff;border-radius:16px;padding:32px">
<tr><td><h1 style="margin:0 0 12px;font-size:22px">Sign in to Hush</h1>
<p style="margin:0 0 24px;line-height:1.5">Open this link to sign in to ${escapeHtml(host)}. It works once and expires in ${minutes} minutes.</p>
<p style="margin:0 0 24px"><a href="${escapeHtml(input.url)}" style="display:inline-block;background:#6425f0;color:#fff;text-decoration:none;font-weight:600;padding:12px 20px;border-radius:10px">Sign in</a></p>
<p style="margin:0;font-size:13px;color:#525a71;line-height:1.5">If you did not ask for it, ignore this e-mail: nobody can sign in without the link.</p>
</td></tr></table></td></tr></table></body></html>`;
  try {
    await transporter(config).sendMail({ from: mailFrom(config), to: input.to, subject: "Sign in to Hush", text, html });
  } catch (error) {
    // nodemailer's messages can quote the recipient: keep only the kind and SMTP code.
    const code = (error as { responseCode?: number; code?: string }).responseCode ?? (error as { code?: string }).code;
    throw new AppError("upstream:email", `Could not send the sign-in e-mail${code ? ` (${code})` : ""}.`);
  }
}
