import type { CertificateVerification } from "@trainwise/contract/certificates";
import { useEffect, useState } from "react";
import { Alert } from "../../components/ui/form-field.tsx";
import { call, messageOf } from "../../lib/api.ts";
import type { Route } from "./+types/verify-certificate";

export const meta = () => [{ title: "Verify a certificate | Trainwise" }, { name: "robots", content: "noindex" }];

type Check =
  | { kind: "checking" }
  | { kind: "found"; certificate: CertificateVerification }
  | { kind: "not-found"; message: string };

/** /verify/{code}: anyone holding a certificate's code can confirm it was issued, and to whom. */
export default function VerifyCertificate({ params }: Route.ComponentProps) {
  const [check, setCheck] = useState<Check>({ kind: "checking" });

  useEffect(() => {
    const controller = new AbortController();
    call("verifyCertificate", { params: { code: params.code }, signal: controller.signal }).then(
      (certificate) => setCheck({ kind: "found", certificate }),
      (error: Error) => {
        if (error.name !== "AbortError") {
          setCheck({ kind: "not-found", message: messageOf(error, "This certificate could not be checked.") });
        }
      },
    );
    return () => controller.abort();
  }, [params.code]);

  return (
    <div className="mx-auto max-w-2xl px-4 py-12">
      <h1 className="mb-6 text-3xl font-bold text-brand-900">Verify a certificate</h1>
      {check.kind === "checking" && <p role="status">Checking…</p>}
      {check.kind === "not-found" && <Alert tone="error">{check.message}</Alert>}
      {check.kind === "found" && (
        <Alert tone="success">
          <p className="font-semibold">Certificate {check.certificate.code} is genuine.</p>
          <p className="mt-2">
            {check.certificate.studentName} passed {check.certificate.testName} on{" "}
            {new Date(`${check.certificate.passedOn}T00:00:00Z`).toLocaleDateString("en-GB", {
              day: "numeric",
              month: "long",
              year: "numeric",
              timeZone: "UTC",
            })}
            .
          </p>
        </Alert>
      )}
    </div>
  );
}
