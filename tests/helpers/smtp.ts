/**
 * A real SMTP server for tests (smtp-server package): the app's nodemailer transport delivers sign-in
 * e-mails to it over TCP, and tests read them back, decoded (quoted-printable/base64, multipart).
 * tests/helpers/smtp-server.ts runs it as a separate process with an HTTP view for Playwright.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  receivedAt: number;
}

export interface TestSmtpServer {
  port: number;
  /** smtp://127.0.0.1:<port>, for EMAIL_SERVER. */
  url: string;
  messages: ReceivedMail[];
  /** The first message to `to` received after `since` (ms epoch), waiting up to `timeoutMs`. */
  waitForMail(to: string, options?: { since?: number; timeoutMs?: number }): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startSmtpServer(options: { port?: number; host?: string } = {}): Promise<TestSmtpServer> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        messages.push({
          ...parseMessage(raw),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          receivedAt: Date.now(),
        });
        waiters.forEach((w) => w());
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;

  const find = (to: string, since: number) =>
    messages.find((m) => m.to.includes(to.toLowerCase()) && m.receivedAt >= since);

  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitForMail(to, { since = 0, timeoutMs = 10_000 } = {}) {
      const found = find(to, since);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`No e-mail to ${to} within ${timeoutMs} ms`));
        }, timeoutMs);
        const check = () => {
          const mail = find(to, since);
          if (!mail) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(mail);
        };
        waiters.add(check);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The sign-in link of a Hush sign-in e-mail (the /signup?token=… URL in its text part). */
export function extractSignInLink(mail: Pick<ReceivedMail, "text">): string {
  const match = /https?:\/\/\S+\/signup\?token=[A-Za-z0-9_%-]+/.exec(mail.text);
  if (!match) throw new Error("No sign-in link in the e-mail");
  return match[0];
}

// ---- minimal MIME reading: enough for nodemailer's text/html (multipart/alternative) messages ----

function splitHeaders(part: string): { headers: Map<string, string>; body: string } {
  const at = part.search(/\r?\n\r?\n/);
  const head = at < 0 ? part : part.slice(0, at);
  const body = at < 0 ? "" : part.slice(at).replace(/^\r?\n\r?\n/, "");
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeBody(body: string, encoding: string | undefined): string {
  const enc = (encoding ?? "7bit").toLowerCase();
  if (enc === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (enc === "quoted-printable") {
    const bytes = body
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, "latin1").toString("utf8");
  }
  return body;
}

function decodeWords(value: string): string {
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, kind: string, data: string) =>
    kind.toLowerCase() === "b"
      ? Buffer.from(data, "base64").toString("utf8")
      : decodeBody(data.replace(/_/g, " "), "quoted-printable"),
  );
}

function parseMessage(raw: string): { subject: string; text: string; html: string } {
  const { headers, body } = splitHeaders(raw);
  const out = { subject: decodeWords(headers.get("subject") ?? ""), text: "", html: "" };
  const visit = (partHeaders: Map<string, string>, partBody: string) => {
    const type = partHeaders.get("content-type") ?? "text/plain";
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (type.toLowerCase().startsWith("multipart/") && boundary) {
      for (const piece of partBody.split(`--${boundary}`).slice(1)) {
        if (piece.startsWith("--")) break;
        const sub = splitHeaders(piece.replace(/^\r?\n/, ""));
        visit(sub.headers, sub.body);
      }
      return;
    }
    const decoded = decodeBody(partBody, partHeaders.get("content-transfer-encoding"));
    if (type.toLowerCase().startsWith("text/html")) out.html ||= decoded;
    else if (type.toLowerCase().startsWith("text/plain")) out.text ||= decoded;
  };
  visit(headers, body);
  return out;
}
