// E-mails each contact enquiry to the company's info address when SMTP_URL is set. The enquiry is already
// stored when this runs, so a mail server that is down loses nothing: the failure is logged and admins still
// see the enquiry in the admin area.

import { brand } from "@trainwise/contract/brand";
import type { ContactInput } from "@trainwise/contract/contact";
import type { Mailer } from "../../mail/mailer.ts";

export type ContactNotifier = (enquiry: ContactInput) => Promise<void>;

export function createContactNotifier(mailer: Mailer | undefined): ContactNotifier | undefined {
  if (!mailer) return undefined;
  return (enquiry) =>
    mailer({
      fromName: `${brand.name} website`,
      to: brand.email,
      replyTo: { name: enquiry.name, address: enquiry.email },
      subject: `Website enquiry: ${enquiry.subject}`,
      text: [
        ...(enquiry.programme ? [`Programme: ${enquiry.programme}`] : []),
        `Name: ${enquiry.name}`,
        `Email: ${enquiry.email}`,
        `Phone: ${enquiry.phone}`,
        `Subject: ${enquiry.subject}`,
        "",
        enquiry.message || "(no message)",
      ].join("\n"),
    });
}
