import type { CertificateVerification } from "@trainwise/contract/certificates";
import { Suspense } from "react";
import { Await, useAsyncError } from "react-router";
import { Alert } from "../../components/ui/form-field.tsx";
import { call, messageOf } from "../../lib/api.ts";
import type { Route } from "./+types/verify-certificate";

export const meta = () => [{ title: "Verify a certificate | Trainwise" }, { name: "robots", content: "noindex" }];

export function clientLoader({ params, request }: Route.ClientLoaderArgs) {
  // Not awaited: the page opens at once and says it is checking.
  const certificate = call("verifyCertificate", { params: { code: params.code }, signal: request.signal });
  // The page shows a refusal itself (<Await>); this only keeps the browser from reporting it as unhandled.
  certificate.catch(() => undefined);
  return { certificate };
}

/** /verify/{code}: anyone holding a certificate's code can confirm it was issued, and to whom. */
export default function VerifyCertificate({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-2xl px-4 py-12">
      <h1 className="mb-6 text-3xl font-bold text-brand-900">Verify a certificate</h1>
      <Suspense fallback={<p role="status">Checking…</p>}>
        <Await resolve={loaderData.certificate} errorElement={<NotConfirmed />}>
          {(certificate) => <Confirmed certificate={certificate} />}
        </Await>
      </Suspense>
    </div>
  );
}

function NotConfirmed() {
  return <Alert tone="error">{messageOf(useAsyncError(), "This certificate could not be checked.")}</Alert>;
}

function Confirmed({ certificate }: { certificate: CertificateVerification }) {
  return (
    <Alert tone="success">
      <p className="font-semibold">Certificate {certificate.code} is genuine.</p>
      <p className="mt-2">
        {certificate.studentName} passed {certificate.testName} on{" "}
        {new Date(`${certificate.passedOn}T00:00:00Z`).toLocaleDateString("en-GB", {
          day: "numeric",
          month: "long",
          year: "numeric",
          timeZone: "UTC",
        })}
        .
      </p>
      <p className="mt-2">Identity: {certificate.identity}.</p>
    </Alert>
  );
}
