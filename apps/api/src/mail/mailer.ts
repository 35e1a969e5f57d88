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
}

export type Mailer = (message: MailMessage) => Promise<void>;

/** A mailer over one pooled SMTP connection, or undefined when SMTP_URL is not set. */
export function createMailer(smtpUrl: string | undefined): Mailer | undefined {
  if (!smtpUrl) return undefined;
  const transport = nodemailer.createTransport(smtpUrl);
  return async ({ to, subject, text, replyTo, fromName }) => {
    await transport.sendMail({
      from: { name: fromName ?? brand.name, address: brand.email },
      to,
      ...(replyTo ? { replyTo } : {}),
      subject,
      text,
    });
  };
}
