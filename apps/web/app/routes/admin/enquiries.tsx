import { enquiryTableQuerySchema } from "@trainwise/contract/admin-tables";
import type { ContactEnquiry } from "@trainwise/contract/contact";
import { AdminShell } from "../../components/admin/admin-shell.tsx";
import {
  BusyNote,
  type Column,
  DataTable,
  ExportButton,
  PageLinks,
  SearchBox,
  SortSelect,
  TableToolbar,
  useTableBusy,
} from "../../components/admin/admin-table.tsx";
import { Alert } from "../../components/ui/form-field.tsx";
import { adminCall, tableQueryFrom, useTableExport } from "../../lib/admin-client.ts";
import { formatDateTime } from "../../lib/format.ts";
import type { Route } from "./+types/enquiries";

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const query = tableQueryFrom(enquiryTableQuerySchema, request.url);
  return { page: await adminCall("enquiryTable", { query, signal: request.signal }) };
}

export const meta = () => [{ title: "Enquiries | Trainwise" }, { name: "robots", content: "noindex" }];

const COLUMNS: Column<ContactEnquiry>[] = [
  { header: "Received", cell: (enquiry) => formatDateTime(enquiry.createdAt), className: "whitespace-nowrap" },
  {
    // An enquiry from a programme's page names it; one from the contact page names none.
    header: "Programme",
    cell: (enquiry) => enquiry.programme ?? <span className="text-slate-600">None (contact page)</span>,
  },
  { header: "Subject", cell: (enquiry) => enquiry.subject },
  { header: "Name", cell: (enquiry) => enquiry.name },
  {
    header: "Email",
    cell: (enquiry) => (
      <a className="text-brand-700 underline" href={`mailto:${enquiry.email}`}>
        {enquiry.email}
      </a>
    ),
  },
  { header: "Phone", cell: (enquiry) => enquiry.phone, className: "whitespace-nowrap" },
  { header: "Message", cell: (enquiry) => <span className="whitespace-pre-line">{enquiry.message}</span> },
];

export default function Enquiries({ loaderData }: Route.ComponentProps) {
  const { page } = loaderData;
  const busy = useTableBusy();
  const exporter = useTableExport("enquiryExport", "enquiries.csv", () => {
    const { search } = tableQueryFrom(enquiryTableQuerySchema, window.location.href);
    return { search };
  });
  const exportFailed = exporter.failed;
  return (
    <AdminShell title="Contact Enquiries">
      {exportFailed && (
        <div className="mb-4">
          <Alert tone="error">{exportFailed.message}</Alert>
        </div>
      )}
      <TableToolbar>
        <SearchBox label="Search enquiries" />
        <SortSelect
          choices={[
            ["date:desc", "Newest first"],
            ["date:asc", "Oldest first"],
            ["name:asc", "Name A–Z"],
            ["name:desc", "Name Z–A"],
          ]}
        />
        <ExportButton exporter={exporter} />
      </TableToolbar>
      <BusyNote busy={busy} />
      <DataTable
        caption="Contact enquiries"
        columns={COLUMNS}
        rows={page.rows}
        busy={busy}
        empty={page.total === 0 ? "No enquiries yet." : "No enquiries match."}
      />
      <PageLinks of={page} label="Enquiries" noun={["enquiry", "enquiries"]} />
    </AdminShell>
  );
}
