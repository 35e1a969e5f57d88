// The one way the server sends e-mail: through the SMTP server SMTP_URL names (none set: the server sends none).
// Mail always goes after what it reports is stored, so a mail server that is down or slow loses nothing.
import { brand } from "@trainwise/contract/brand";
import nodemailer from "nodemailer";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** Who a reply reaches, when not the company (an enquiry's sender). */
  replyTo?: { name: string; address: string };
  /** The sender's name beside the company's address. */
  fromName?: string;
  /** Files sent with the message (a scorecard's PDF). */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

export type Mailer = (message: MailMessage) => Promise<void>;

/**
 * What a log may say of a failed send: the SMTP reply code and nodemailer's error code, never the message, which
 * quotes the recipient's address ("550 <someone@college.edu>: Recipient address rejected").
 */
export function loggableMailFailure(error: unknown): { smtpCode?: number; code?: string } {
  const failure = error as { responseCode?: unknown; code?: unknown };
  return {
    ...(typeof failure.responseCode === "number" ? { smtpCode: failure.responseCode } : {}),
    ...(typeof failure.code === "string" ? { code: failure.code } : {}),
  };
}

/**
 * A mailer over a pool of SMTP connections kept open between messages (an outside attack counted one connection
 * per message without it), or undefined when SMTP_URL is not set.
 */
export function createMailer(smtpUrl: string | undefined): Mailer | undefined {
  if (!smtpUrl) return undefined;
  const transport = nodemailer.createTransport({ url: smtpUrl, pool: true, maxConnections: 2 });
  return async ({ to, subject, text, replyTo, fromName, attachments }) => {
    await transport.sendMail({
      from: { name: fromName ?? brand.name, address: brand.email },
      to,
      ...(replyTo ? { replyTo } : {}),
      subject,
      text,
      ...(attachments ? { attachments } : {}),
    });
  };
}
