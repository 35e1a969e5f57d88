// POST /api/contact (public, rate-limited) and GET /api/contact (admin).
import { z } from "zod";
import { idSchema, optionalText, requiredText } from "./common.ts";

export const contactInputSchema = z.object({
  name: requiredText("Name", 100),
  email: requiredText("Email", 254).pipe(z.email({ error: "Email must be a valid e-mail address" })),
  subject: requiredText("Subject", 200),
  phone: requiredText("Phone Number", 20).regex(/^[+()\d\s-]{7,20}$/, {
    error: "Phone Number must contain only digits, spaces, +, - or brackets",
  }),
  message: optionalText("Message", 5000, { multiline: true }).default(""),
});
export type ContactInput = z.infer<typeof contactInputSchema>;

export const contactEnquirySchema = contactInputSchema.extend({
  _id: idSchema,
  createdAt: z.iso.datetime(),
});
export type ContactEnquiry = z.infer<typeof contactEnquirySchema>;

/** What the contact form holds before parsing (the message may be left out). */
export type ContactFormValues = z.input<typeof contactInputSchema>;
