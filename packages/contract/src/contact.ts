// POST /api/contact (public, rate-limited) and GET /api/contact (admin).
import { z } from "zod";
import { idSchema, optionalText, requiredText } from "./common.ts";

/**
 * How many digits a contact phone number has, not counting the spaces, brackets, + and - written between them: ten
 * for an Indian number (a mobile, or a landline with its area code), up to fifteen with a country code (the
 * international maximum).
 */
export const CONTACT_PHONE_DIGITS = { min: 10, max: 15 } as const;

/** The training programmes a visitor can enquire about from each programme's page; an enquiry names one or none. */
export const TRAINING_PROGRAMMES = [
  "Institutional Training",
  "Corporate Training",
  "Skill Development",
  "Employment Readiness",
] as const;
export type TrainingProgramme = (typeof TRAINING_PROGRAMMES)[number];

const digitCount = (value: string) => value.replaceAll(/\D/g, "").length;

export const contactInputSchema = z.object({
  name: requiredText("Name", 100),
  email: requiredText("Email", 254).pipe(z.email({ error: "Email must be a valid e-mail address" })),
  subject: requiredText("Subject", 200),
  phone: requiredText("Phone Number", 25)
    .regex(/^[+()\d\s-]*$/, { error: "Phone Number may contain only digits, spaces, +, - or brackets" })
    .refine((value) => digitCount(value) >= CONTACT_PHONE_DIGITS.min && digitCount(value) <= CONTACT_PHONE_DIGITS.max, {
      error: `Phone Number must have ${CONTACT_PHONE_DIGITS.min} to ${CONTACT_PHONE_DIGITS.max} digits (e.g. 98450 12345 or +91 98450 12345)`,
    }),
  message: optionalText("Message", 5000, { multiline: true }).default(""),
  /** The programme page the enquiry was sent from; left out by the contact page. */
  programme: z
    .enum(TRAINING_PROGRAMMES, { error: `Programme must be one of: ${TRAINING_PROGRAMMES.join(", ")}` })
    .optional(),
});
export type ContactInput = z.infer<typeof contactInputSchema>;

/**
 * A stored enquiry as admins read it: what was stored, described, not the form's rules run again. An enquiry kept
 * from before a rule was tightened (the phone's digit count came later) still lists, and a thousand of them do not
 * cost a thousand e-mail and phone checks.
 */
export const contactEnquirySchema = z.object({
  _id: idSchema,
  name: z.string(),
  email: z.string(),
  subject: z.string(),
  phone: z.string(),
  message: z.string(),
  /** The programme the enquiry is about, or null when it came from the contact page. */
  programme: z.enum(TRAINING_PROGRAMMES).nullable(),
  createdAt: z.iso.datetime(),
});
export type ContactEnquiry = z.infer<typeof contactEnquirySchema>;

/** What the contact form holds before parsing (the message may be left out). */
export type ContactFormValues = z.input<typeof contactInputSchema>;
