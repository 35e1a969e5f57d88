// /api/certificates: a passing student's PDF certificate, and the public check of a certificate's code.
import { scorePercentage } from "@trainwise/contract/quiz";
import type { FastifyPluginAsync } from "fastify";
import { HttpError } from "../../http/http-error.ts";
import { serve } from "../../http/serve-endpoint.ts";
import { studentOf } from "../../plugins/auth.ts";
import { certificatePdf } from "./pdf.ts";
import { findCertificate, issueCertificate, newCertificateCode } from "./repository.ts";

/** The code as printed: groups of four, whether or not the visitor typed the dashes. */
function printedCode(code: string): string {
  const plain = code.replaceAll("-", "");
  return `${plain.slice(0, 4)}-${plain.slice(4, 8)}-${plain.slice(8)}`;
}

const certificateRoutes: FastifyPluginAsync = async (app) => {
  serve(app, "certificate", async (request, reply) => {
    const certificate = await issueCertificate(app.db, studentOf(request).id, request.params.id, newCertificateCode());
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
  });

  serve(
    app,
    "verifyCertificate",
    async (request) => {
      const code = printedCode(request.params.code);
      const found = await findCertificate(app.db, code);
      if (!found) throw new HttpError(404, "No certificate has this code. Check it and try again.");
      return { code, ...found, passedOn: found.passedOn.toISOString().slice(0, 10) };
    },
    // Public, so guessing is slowed; a code has 60 bits anyway.
    { config: { rateLimit: { max: 60, timeWindow: 60_000 } } },
  );
};

export default certificateRoutes;
