import type { ContactEnquiry } from "@trainwise/contract/contact";
import { useEffect, useState } from "react";
import { AdminShell } from "../../components/admin-shell.tsx";
import { Alert } from "../../components/form-field.tsx";
import { requireAdminToken } from "../../guards.ts";
import { api, messageOf } from "../../lib/api.ts";

export function clientLoader() {
  return { token: requireAdminToken() };
}

export const meta = () => [{ title: "Enquiries | Trainwise" }, { name: "robots", content: "noindex" }];

export default function Enquiries({ loaderData }: { loaderData: { token: string } }) {
  const { token } = loaderData;
  const [enquiries, setEnquiries] = useState<ContactEnquiry[]>();
  const [failure, setFailure] = useState<string>();

  useEffect(() => {
    api<ContactEnquiry[]>("/contact", { token }).then(setEnquiries, (error) =>
      setFailure(messageOf(error, "Could not load the enquiries.")),
    );
  }, [token]);

  return (
    <AdminShell title="Contact Enquiries" token={token}>
      {failure && <Alert tone="error">{failure}</Alert>}
      {!enquiries && !failure && <p role="status">Loading...</p>}
      {enquiries?.length === 0 && <p>No enquiries yet.</p>}
      <ul className="space-y-4">
        {enquiries?.map((enquiry) => (
          <li key={enquiry._id} className="rounded border border-slate-200 p-4">
            <h2 className="font-semibold">{enquiry.subject}</h2>
            <p className="text-sm text-slate-700">
              {enquiry.name} ·{" "}
              <a className="text-brand-700 underline" href={`mailto:${enquiry.email}`}>
                {enquiry.email}
              </a>{" "}
              · {enquiry.phone} · {new Date(enquiry.createdAt).toLocaleString()}
            </p>
            {enquiry.message && <p className="mt-2 whitespace-pre-line">{enquiry.message}</p>}
          </li>
        ))}
      </ul>
    </AdminShell>
  );
}
