// /api/certificates: a passing student's PDF certificate, and the public check of a certificate's code.
import { certificateCodeParamsSchema, certificateVerificationSchema } from "@trainwise/contract/certificates";
import { errorBodySchema, idParamsSchema } from "@trainwise/contract/common";
import { scorePercentage } from "@trainwise/contract/quiz";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { studentOf } from "../../plugins/auth.ts";
import { HttpError } from "../../plugins/errors.ts";
import { certificatePdf } from "./pdf.ts";
import { findCertificate, issueCertificate, newCertificateCode } from "./repository.ts";

/** The code as printed: groups of four, whether or not the visitor typed the dashes. */
function printedCode(code: string): string {
  const plain = code.replaceAll("-", "");
  return `${plain.slice(0, 4)}-${plain.slice(4, 8)}-${plain.slice(8)}`;
}

const certificateRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/:id",
    {
      onRequest: app.requireStudent,
      schema: {
        tags: ["certificates"],
        summary: "The PDF certificate of the student's own passing result",
        security: [{ bearerAuth: [] }],
        params: idParamsSchema,
        produces: ["application/pdf"],
        // A PDF is sent as a Buffer, which Fastify passes through without serializing.
        response: { 200: z.instanceof(Buffer), 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      const certificate = await issueCertificate(
        app.db,
        studentOf(request).id,
        request.params.id,
        newCertificateCode(),
      );
      if (!certificate)
        throw new HttpError(404, "There is no certificate for this result: it has not passed a test with a pass mark.");
      const pdf = await certificatePdf({
        ...certificate,
        percentage: scorePercentage(certificate.marks, certificate.totalQuestions),
        verifyUrl: `${app.config.siteUrl}/verify/${certificate.code}`,
      });
      return reply
        .type("application/pdf")
        .header("content-disposition", 'attachment; filename="certificate.pdf"')
        .send(pdf);
    },
  );

  app.get(
    "/verify/:code",
    {
      // Public, so guessing is slowed; a code has 60 bits anyway.
      config: { rateLimit: { max: 60, timeWindow: 60_000 } },
      schema: {
        tags: ["certificates"],
        summary: "Confirm a certificate: the name, the test and the date, nothing else",
        params: certificateCodeParamsSchema,
        response: {
          200: certificateVerificationSchema,
          400: errorBodySchema,
          404: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request) => {
      const code = printedCode(request.params.code);
      const found = await findCertificate(app.db, code);
      if (!found) throw new HttpError(404, "No certificate has this code. Check it and try again.");
      return { code, ...found, passedOn: found.passedOn.toISOString().slice(0, 10) };
    },
  );
};

export default certificateRoutes;
