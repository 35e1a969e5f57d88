// The audit log, for owners: who changed what and when, newest first, a page at a time, by admin and action.
import { AUDIT_ACTIONS, type AuditEntry, auditTableQuerySchema } from "@trainwise/contract/admin-roles";
import { AdminShell } from "../../components/admin/admin-shell.tsx";
import {
  BusyNote,
  type Column,
  DataTable,
  FilterSelect,
  PageLinks,
  TableToolbar,
  useTableBusy,
} from "../../components/admin/admin-table.tsx";
import { adminCall, tableQueryFrom } from "../../lib/admin-client.ts";
import { formatDateTime } from "../../lib/format.ts";
import type { Route } from "./+types/audit";

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const query = tableQueryFrom(auditTableQuerySchema, request.url);
  const [page, admins] = await Promise.all([
    adminCall("auditTable", { query, signal: request.signal }),
    adminCall("admins", { signal: request.signal }),
  ]);
  return { page, admins };
}

export const meta = () => [{ title: "Audit Log | Trainwise" }, { name: "robots", content: "noindex" }];

type Row = AuditEntry & { _id: string };

/** Before and after as compact JSON, only the fields that changed when both exist. */
function changes(entry: AuditEntry): { before: string; after: string } {
  const show = (value: unknown) => (value === null || value === undefined ? "–" : JSON.stringify(value, null, 1));
  const { before, after } = entry;
  if (before && after && typeof before === "object" && typeof after === "object") {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
      (key) =>
        JSON.stringify((before as Record<string, unknown>)[key]) !==
        JSON.stringify((after as Record<string, unknown>)[key]),
    );
    const pick = (value: object) =>
      Object.fromEntries(keys.map((key) => [key, (value as Record<string, unknown>)[key]]));
    return { before: show(pick(before)), after: show(pick(after)) };
  }
  return { before: show(before), after: show(after) };
}

function Json({ text }: { text: string }) {
  return <pre className="max-w-md overflow-x-auto whitespace-pre-wrap break-all font-mono text-xs">{text}</pre>;
}

const COLUMNS: Column<Row>[] = [
  { header: "When", cell: (entry) => formatDateTime(entry.at), className: "whitespace-nowrap" },
  { header: "Admin", cell: (entry) => entry.adminUsername },
  { header: "Action", cell: (entry) => <code>{entry.action}</code>, className: "whitespace-nowrap" },
  { header: "Entity", cell: (entry) => <span className="break-all text-xs">{entry.entityId ?? "–"}</span> },
  { header: "Before", cell: (entry) => <Json text={changes(entry).before} /> },
  { header: "After", cell: (entry) => <Json text={changes(entry).after} /> },
];

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  const { page, admins } = loaderData;
  const busy = useTableBusy();
  return (
    <AdminShell title="Audit Log">
      <TableToolbar>
        <FilterSelect
          label="Admin"
          name="adminId"
          allLabel="All admins"
          choices={admins.map((admin) => [admin.id, admin.username] as const)}
        />
        <FilterSelect
          label="Action"
          name="action"
          allLabel="All actions"
          choices={AUDIT_ACTIONS.map((action) => [action, action] as const)}
        />
      </TableToolbar>
      <BusyNote busy={busy} />
      <DataTable
        caption="Audit log, newest first"
        columns={COLUMNS}
        rows={page.rows.map((entry) => ({ ...entry, _id: entry.id }))}
        busy={busy}
        empty={page.total === 0 ? "Nothing has been changed yet." : "No entries match."}
      />
      <PageLinks of={page} label="Audit log" noun={["entry", "entries"]} />
    </AdminShell>
  );
}
