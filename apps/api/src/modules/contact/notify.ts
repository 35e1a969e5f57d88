// E-mails each contact enquiry to the company's info address when SMTP_URL is set. The enquiry is already
// stored when this runs, so a mail server that is down loses nothing: the failure is logged and admins still
// see the enquiry in the admin area.

import { brand } from "@trainwise/contract/brand";
import type { ContactInput } from "@trainwise/contract/contact";
import nodemailer from "nodemailer";

export type ContactNotifier = (enquiry: ContactInput) => Promise<void>;

export function createContactNotifier(smtpUrl: string | undefined): ContactNotifier | undefined {
  if (!smtpUrl) return undefined;
  const transport = nodemailer.createTransport(smtpUrl);
  return async (enquiry) => {
    await transport.sendMail({
      from: { name: `${brand.name} website`, address: brand.email },
      to: brand.email,
      replyTo: { name: enquiry.name, address: enquiry.email },
      subject: `Website enquiry: ${enquiry.subject}`,
      text: [
        `Name: ${enquiry.name}`,
        `Email: ${enquiry.email}`,
        `Phone: ${enquiry.phone}`,
        `Subject: ${enquiry.subject}`,
        "",
        enquiry.message || "(no message)",
      ].join("\n"),
    });
  };
}
