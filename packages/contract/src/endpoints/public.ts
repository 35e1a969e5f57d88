// The calls anyone may make: health, logging in, registering, the invitation page, the carousel, the contact
// form, a certificate's check and question images.
import { acceptInviteSchema, invitationSchema, inviteTokenParamsSchema } from "../admin-roles.ts";
import {
  adminLoginSchema,
  emailCodeRequestSchema,
  registrationDriveQuerySchema,
  registrationResponseSchema,
  studentRegistrationSchema,
} from "../auth.ts";
import { certificateCodeParamsSchema, certificateVerificationSchema } from "../certificates.ts";
import { messageResponseSchema, tokenResponseSchema } from "../common.ts";
import { contactInputSchema } from "../contact.ts";
import { personalLinkParamsSchema, personalLinkSchema, registrationDriveSchema } from "../drives.ts";
import { publicFeedbackListSchema } from "../feedback.ts";
import { healthSchema, livenessSchema } from "../health.ts";
import { mediaFileParamsSchema } from "../media.ts";
import { certificateLookupSchema, resultsLookupSchema, studentResultsSchema } from "../student-results.ts";

import { anyone, endpoint } from "./definition.ts";

export const publicEndpoints = {
  health: endpoint({
    method: "GET",
    path: "/health",
    access: anyone,
    summary: "Readiness under its original name: 200 when the database answers, 503 while draining or down",
    response: healthSchema,
  }),
  healthReady: endpoint({
    method: "GET",
    path: "/health/ready",
    access: anyone,
    summary: "Readiness: 200 when the database answers, 503 while the instance drains or the database is down",
    response: healthSchema,
  }),
  healthLive: endpoint({
    method: "GET",
    path: "/health/live",
    access: anyone,
    summary: "Liveness: 200 while the process runs, whatever the database does",
    response: livenessSchema,
  }),
  adminLogin: endpoint({
    method: "POST",
    path: "/auth/admin/login",
    access: anyone,
    summary: "Log in as an admin",
    body: adminLoginSchema,
    response: tokenResponseSchema,
  }),
  registerStudent: endpoint({
    method: "POST",
    path: "/auth/student/register",
    access: anyone,
    summary:
      "Register a student for a drive (no code: the default drive) and get a student token and, once, a resume " +
      "code; registering again in the same drive needs that code",
    body: studentRegistrationSchema,
    response: registrationResponseSchema,
  }),
  registrationDrive: endpoint({
    method: "GET",
    path: "/auth/student/drive",
    access: anyone,
    summary:
      "What the registration page shows before anyone types: the drive a code names (none: the default drive), its " +
      "test's outline, its window and who may register",
    description:
      "A code that names no current drive is refused as registration refuses it (403, the same message, no sooner " +
      "than a known code's refusal) and counts against the address's wrong drive codes.",
    query: registrationDriveQuerySchema,
    response: registrationDriveSchema,
  }),
  sendEmailCode: endpoint({
    method: "POST",
    path: "/auth/student/email-code",
    access: anyone,
    summary:
      "E-mail a 6-digit code to the address a student registers with, on a drive that verifies e-mail addresses; " +
      "the registration sends it back as emailCode",
    body: emailCodeRequestSchema,
    response: messageResponseSchema,
  }),
  personalLink: endpoint({
    method: "GET",
    path: "/auth/student/links/:token",
    access: anyone,
    summary: "The drive and the identity a personal link admits, for its registration page to fill in and lock",
    params: personalLinkParamsSchema,
    response: personalLinkSchema,
  }),
  studentResults: endpoint({
    method: "POST",
    path: "/auth/student/results",
    access: anyone,
    summary:
      "A student's results, later: with the email and resume code of their registration, or their personal link. " +
      "Anything that matches no registration gets one answer (404); wrong tries count against the address",
    body: resultsLookupSchema,
    response: studentResultsSchema,
  }),
  studentResultCertificate: endpoint({
    method: "POST",
    path: "/auth/student/results/certificate",
    access: anyone,
    summary: "The PDF certificate of one of those results, with the same email and resume code or personal link",
    body: certificateLookupSchema,
    response: "file",
  }),
  studentResultScorecard: endpoint({
    method: "POST",
    path: "/auth/student/results/scorecard",
    access: anyone,
    summary: "The PDF scorecard of one of those results, with the same email and resume code or personal link",
    // The same lookup as a certificate's: the registration's details and the result's id.
    body: certificateLookupSchema,
    response: "file",
  }),
  invitation: endpoint({
    method: "GET",
    path: "/admins/invites/:token",
    access: anyone,
    summary: "Whom an invitation link is for, while it can still be used",
    params: inviteTokenParamsSchema,
    response: invitationSchema,
  }),
  acceptInvitation: endpoint({
    method: "POST",
    path: "/admins/invites/:token",
    access: anyone,
    summary: "Set your password with an invitation link (once)",
    params: inviteTokenParamsSchema,
    body: acceptInviteSchema,
    response: messageResponseSchema,
  }),
  publicFeedback: endpoint({
    method: "GET",
    path: "/feedback",
    access: anyone,
    summary: "Visible student feedback, newest first, without e-mail or USN",
    response: publicFeedbackListSchema,
  }),
  sendEnquiry: endpoint({
    method: "POST",
    path: "/contact",
    access: anyone,
    summary: "Send an enquiry from the contact form",
    body: contactInputSchema,
    status: 201,
    response: messageResponseSchema,
  }),
  verifyCertificate: endpoint({
    method: "GET",
    path: "/certificates/verify/:code",
    access: anyone,
    summary: "Confirm a certificate: the name, the test and the date, nothing else",
    params: certificateCodeParamsSchema,
    response: certificateVerificationSchema,
  }),
  media: endpoint({
    method: "GET",
    path: "/media/:file",
    access: anyone,
    summary: "An uploaded image, by the name its upload answered; cached for ever",
    params: mediaFileParamsSchema,
    response: "image",
  }),
};
