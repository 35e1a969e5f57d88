// /api/certificates: a passing student's PDF certificate, and the public check of a certificate's code; and every
// student's PDF scorecard of a result whose score is out (issue 26).

import { createHash } from "node:crypto";
import { verifiedIdentity } from "@trainwise/contract/certificates";
import { scorePercentage } from "@trainwise/contract/quiz";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { LRUCache } from "lru-cache";
import { sendDownload } from "../../csv/reply.ts";
import { HttpError } from "../../http/http-error.ts";
import { serve } from "../../http/serve-endpoint.ts";
import { createMailer } from "../../mail/mailer.ts";
import { studentOf } from "../../plugins/auth.ts";
import { guardedLookup } from "../quiz/lasting-results.ts";
import { findCertificate, issueCertificate, newCertificateCode } from "./repository.ts";
import { documentDrawing, Scorecards } from "./scorecards.ts";

/** How often an instance looks for scorecards to mail (SMTP_URL set). */
const SCORECARD_MAIL_EVERY_MS = 30_000;

/** The code as printed: groups of four, whether or not the visitor typed the dashes. */
function printedCode(code: string): string {
  const plain = code.replaceAll("-", "");
  return `${plain.slice(0, 4)}-${plain.slice(4, 8)}-${plain.slice(8)}`;
}

/**
 * Downloads of certificates a student may start per minute, counted per student: a certificate is built once, so
 * more than a few downloads a minute are a loop, not a student.
 */
export const CERTIFICATE_DOWNLOADS_PER_MINUTE = 10;

/** A student's downloads of one kind of document, counted per student once the token has named them. */
function perStudent(document: string) {
  return {
    config: {
      rateLimit: {
        max: CERTIFICATE_DOWNLOADS_PER_MINUTE,
        timeWindow: 60_000,
        hook: "preHandler" as const,
        // A whole class behind one address is not one student.
        keyGenerator: (request: FastifyRequest) => `${document}:${request.student?.id ?? request.ip}`,
      },
    },
  };
}

const sendPdf = (reply: FastifyReply, fileName: string, pdf: Buffer) =>
  sendDownload(reply, { fileName, contentType: "application/pdf" }, pdf);

/**
 * A lookup's downloads, counted per registration it names (its e-mail address or personal link, hashed: the count
 * may sit in a store the instances share), not per address: a whole lab behind one address is many students, and
 * one who names someone else's registration is stopped by the lookup's own guesses limit.
 */
const PER_REGISTRATION_NAMED = {
  config: {
    rateLimit: {
      max: CERTIFICATE_DOWNLOADS_PER_MINUTE,
      timeWindow: 60_000,
      hook: "preHandler" as const,
      keyGenerator: (request: FastifyRequest) => {
        const body = request.body as { email?: unknown; linkToken?: unknown } | undefined;
        const named = typeof body?.linkToken === "string" ? body.linkToken : String(body?.email ?? "").toLowerCase();
        return `document-lookup:${createHash("sha256").update(named).digest("base64url")}`;
      },
    },
  },
};

const NO_CERTIFICATE =
  "There is no certificate for this result. Certificates are given for a passed test with a pass mark, once its " +
  "results are out, on drives that confirm who took it (a candidate list, or a code e-mailed to them).";

const certificateRoutes: FastifyPluginAsync = async (app) => {
  const drawing = documentDrawing();
  app.addHook("onClose", () => drawing.close());

  /**
   * Built certificates by result: building one holds the event loop about 100 ms, so each is built once per
   * instance (a passed result never changes) and a student's further downloads cost nobody else anything.
   */
  const built = new LRUCache<string, { studentId: string; pdf: Buffer }>({
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: (entry) => entry.pdf.length + 100,
  });

  async function certificateOf(studentId: string, resultId: string): Promise<Buffer | undefined> {
    const cached = built.get(resultId);
    if (cached) return cached.studentId === studentId ? cached.pdf : undefined;
    const certificate = await issueCertificate(app.db, studentId, resultId, newCertificateCode());
    if (!certificate) return undefined;
    const drawn = await drawing.run({
      kind: "certificate",
      facts: {
        ...certificate,
        identity: verifiedIdentity(certificate),
        percentage: scorePercentage(certificate.marks, certificate.totalQuestions),
        verifyUrl: `${app.config.siteUrl}/verify/${certificate.code}`,
      },
    });
    const pdf = Buffer.from(drawn.buffer, drawn.byteOffset, drawn.length);
    built.set(resultId, { studentId, pdf });
    return pdf;
  }

  serve(
    app,
    "certificate",
    async (request, reply) => {
      const pdf = await certificateOf(studentOf(request).id, request.params.id);
      if (!pdf) throw new HttpError(404, NO_CERTIFICATE);
      return sendPdf(reply, "certificate.pdf", pdf);
    },
    perStudent("certificate"),
  );

  // The same certificate from the results page a student reaches later with their resume code or personal link.
  const lookUp = guardedLookup(app.counters);
  serve(
    app,
    "studentResultCertificate",
    async (request, reply) => {
      const { resultId, ...lookup } = request.body;
      let pdf: Buffer | undefined;
      for (const student of await lookUp(app.db, request.ip, reply, lookup)) {
        pdf ??= await certificateOf(student.id, resultId);
      }
      if (!pdf) throw new HttpError(404, NO_CERTIFICATE);
      return sendPdf(reply, "certificate.pdf", pdf);
    },
    PER_REGISTRATION_NAMED,
  );

  const scorecards = new Scorecards(app.db, drawing);
  // Each instance mails what it claims; a claim is an attempt's, so instances never mail one scorecard twice.
  const mailer = createMailer(app.config.smtpUrl);
  if (mailer) {
    let mailing = false;
    const timer = setInterval(() => {
      if (mailing) return;
      mailing = true;
      scorecards
        .mailDue(mailer, (failure) => app.log.warn({ failure }, "a scorecard was not mailed"))
        .catch((error: unknown) => app.log.warn({ err: error }, "mailing scorecards failed"))
        .finally(() => {
          mailing = false;
        });
    }, SCORECARD_MAIL_EVERY_MS);
    timer.unref();
    app.addHook("onClose", () => clearInterval(timer));
  }

  serve(
    app,
    "scorecard",
    async (request, reply) =>
      sendPdf(reply, "scorecard.pdf", await scorecards.pdfOf(studentOf(request).id, request.params.id)),
    perStudent("scorecard"),
  );

  serve(
    app,
    "studentResultScorecard",
    async (request, reply) => {
      const { resultId, ...lookup } = request.body;
      // The registrations the lookup names; the result must be one of theirs (resultOf answers 404 otherwise).
      const students = await lookUp(app.db, request.ip, reply, lookup);
      for (const [index, student] of students.entries()) {
        try {
          return sendPdf(reply, "scorecard.pdf", await scorecards.pdfOf(student.id, resultId));
        } catch (error) {
          if (!(error instanceof HttpError && error.statusCode === 404) || index === students.length - 1) throw error;
        }
      }
      throw new HttpError(404, "Result not found.");
    },
    PER_REGISTRATION_NAMED,
  );

  serve(
    app,
    "verifyCertificate",
    async (request) => {
      const code = printedCode(request.params.code);
      const found = await findCertificate(app.db, code);
      if (!found) throw new HttpError(404, "No certificate has this code. Check it and try again.");
      const { studentName, testName, passedOn } = found;
      return {
        code,
        studentName,
        identity: verifiedIdentity(found),
        testName,
        passedOn: passedOn.toISOString().slice(0, 10),
      };
    },
    // Public, so guessing is slowed; a code has 60 bits anyway.
    { config: { rateLimit: { max: 60, timeWindow: 60_000 } } },
  );
};

export default certificateRoutes;
