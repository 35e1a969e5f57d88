// Admin accounts, for owners: who can sign in with which role; invite by one-time link or generated password;
// change a role; disable (which ends the admin's sessions at once) or enable again.
import {
  ADMIN_ROLES,
  type AdminAccount,
  type AdminInvite,
  type AdminInviteResult,
  adminInviteSchema,
  INVITE_LIFETIME_HOURS,
  ROLE_LABELS,
} from "@trainwise/contract/admin-roles";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { AdminShell } from "../../components/admin/admin-shell.tsx";
import { type Column, DataTable } from "../../components/admin/admin-table.tsx";
import { Alert, FormField, FormOutcome, SubmitButton } from "../../components/ui/form-field.tsx";
import { adminCall, currentAdmin, useAdminAction } from "../../lib/admin-client.ts";
import { ApiError } from "../../lib/api.ts";
import { formatDateTime } from "../../lib/format.ts";
import { resolverFor } from "../../lib/zod-resolver.ts";
import type { Route } from "./+types/admins";

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const [accounts, me] = await Promise.all([adminCall("admins", { signal: request.signal }), currentAdmin()]);
  return { accounts, me };
}

export const meta = () => [{ title: "Admins | Trainwise" }, { name: "robots", content: "noindex" }];

const STATUS_LABELS = { active: "Active", invited: "Invited (link not used yet)", disabled: "Disabled" } as const;

type Row = AdminAccount & { _id: string };

/** The secret of a fresh invitation, shown once: the link to send, or the generated password. */
function InviteSecret({ result }: { result: AdminInviteResult }) {
  const link = result.invitePath ? `${window.location.origin}${result.invitePath}` : undefined;
  return (
    <FormOutcome tone="success">
      {link ? (
        <>
          <p>
            Send this link to <strong>{result.admin.username}</strong>. It works once, until{" "}
            {result.expiresAt ? formatDateTime(result.expiresAt) : `${INVITE_LIFETIME_HOURS} hours from now`}, and is
            shown only now:
          </p>
          <p className="mt-2 break-all font-mono text-sm" data-testid="invite-link">
            {link}
          </p>
        </>
      ) : (
        <>
          <p>
            Password for <strong>{result.admin.username}</strong> (shown only now; they can change it under Account):
          </p>
          <p className="mt-2 break-all font-mono text-sm" data-testid="generated-password">
            {result.password}
          </p>
        </>
      )}
    </FormOutcome>
  );
}

function InviteForm() {
  const change = useAdminAction();
  const [invited, setInvited] = useState<AdminInviteResult>();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<AdminInvite>({
    resolver: resolverFor(adminInviteSchema),
    defaultValues: { username: "", role: "viewer", method: "link" },
  });
  const onSubmit = handleSubmit(async (values) => {
    setInvited(undefined);
    await change.run(async (call) => {
      try {
        const result = await call("inviteAdmin", { body: values });
        setInvited(result);
        reset();
        return `Invited ${result.admin.username}.`;
      } catch (error) {
        if (error instanceof ApiError) {
          for (const [field, message] of Object.entries(error.fields))
            setError(field as keyof AdminInvite, { message });
        }
        throw error;
      }
    }, "The admin was not invited.");
  });
  return (
    <section aria-labelledby="invite-admin" className="max-w-xl">
      <h2 id="invite-admin" className="text-xl font-semibold">
        Invite an admin
      </h2>
      <form onSubmit={onSubmit} noValidate className="mt-4 space-y-4">
        <FormField label="Username" autoComplete="off" error={errors.username?.message} {...register("username")} />
        <div>
          <label htmlFor="invite-role" className="block font-medium">
            Role
          </label>
          <select
            id="invite-role"
            className="mt-1 block w-full rounded border border-slate-400 px-3 py-2"
            {...register("role")}
          >
            {ADMIN_ROLES.map((role) => (
              <option key={role} value={role}>
                {ROLE_LABELS[role]}
              </option>
            ))}
          </select>
          <p className="mt-1 text-sm text-slate-700">
            Owner: everything, including admins. Examiner: questions, tests, drives, students and feedback. Viewer:
            reads results, drive pages, live boards, ranks, shortlists and item analysis, and takes exports; changes
            nothing.
          </p>
        </div>
        <fieldset>
          <legend className="font-medium">How they sign in the first time</legend>
          <label className="mt-1 flex items-center gap-2">
            <input type="radio" value="link" {...register("method")} /> A one-time link where they set their password
          </label>
          <label className="mt-1 flex items-center gap-2">
            <input type="radio" value="password" {...register("method")} /> A generated password I pass on
          </label>
        </fieldset>
        <SubmitButton busy={change.busy}>Invite admin</SubmitButton>
      </form>
      <div className="mt-4">
        {invited && <InviteSecret result={invited} />}
        {change.outcome && !change.outcome.ok && <FormOutcome tone="error">{change.outcome.message}</FormOutcome>}
      </div>
    </section>
  );
}

export default function Admins({ loaderData }: Route.ComponentProps) {
  const { accounts, me } = loaderData;
  const change = useAdminAction();
  // A renewed invitation's link, shown once like a new one's.
  const [renewed, setRenewed] = useState<AdminInviteResult>();
  const rows: Row[] = accounts.map((account) => ({ ...account, _id: account.id }));
  const columns: Column<Row>[] = [
    { header: "Username", cell: (row) => <span className="break-all">{row.username}</span> },
    {
      header: "Role",
      cell: (row) => (
        <select
          aria-label={`Role of ${row.username}`}
          value={row.role}
          disabled={change.busy}
          onChange={(event) => {
            const role = event.target.value as AdminAccount["role"];
            void change.run(async (call) => {
              await call("changeAdminRole", { id: row.id, body: { role } });
              return `${row.username} is now ${ROLE_LABELS[role].toLowerCase()}.`;
            }, "The role was not changed.");
          }}
          className="rounded border border-slate-400 px-2 py-1"
        >
          {ADMIN_ROLES.map((role) => (
            <option key={role} value={role}>
              {ROLE_LABELS[role]}
            </option>
          ))}
        </select>
      ),
    },
    { header: "Status", cell: (row) => STATUS_LABELS[row.status] },
    {
      header: "Last sign-in",
      cell: (row) => (row.lastSignInAt ? formatDateTime(row.lastSignInAt) : "Never"),
      className: "whitespace-nowrap",
    },
    {
      header: "Actions",
      cell: (row) => {
        const disabled = row.status === "disabled";
        return (
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              disabled={change.busy}
              onClick={() =>
                void change.run(
                  async (call) => {
                    await call(disabled ? "enableAdmin" : "disableAdmin", { id: row.id });
                    return disabled
                      ? `${row.username} can sign in again.`
                      : `${row.username} is disabled and signed out.`;
                  },
                  disabled ? "The admin was not enabled." : "The admin was not disabled.",
                )
              }
              className="rounded border border-brand-700 px-3 py-1 font-semibold text-brand-700 hover:bg-brand-50 disabled:opacity-60"
            >
              {disabled ? "Enable" : "Disable"} <span className="sr-only">{row.username}</span>
            </button>
            {row.status === "invited" && (
              <button
                type="button"
                disabled={change.busy}
                onClick={() =>
                  void change.run(async (call) => {
                    setRenewed(await call("renewInvitation", { id: row.id }));
                    return `${row.username}'s earlier invitation links no longer work.`;
                  }, "No new link was made.")
                }
                className="rounded border border-brand-700 px-3 py-1 font-semibold text-brand-700 hover:bg-brand-50 disabled:opacity-60"
              >
                New invitation link <span className="sr-only">for {row.username}</span>
              </button>
            )}
          </div>
        );
      },
    },
  ];
  return (
    <AdminShell title="Admins">
      <p className="mb-4">
        Signed in as <strong>{me.username}</strong>. Disabling an admin signs them out everywhere at once; the last
        active owner cannot be disabled or given another role.
      </p>
      {change.outcome && <Alert tone={change.outcome.ok ? "success" : "error"}>{change.outcome.message}</Alert>}
      {renewed && change.outcome?.ok && <InviteSecret result={renewed} />}
      <DataTable caption="Admin accounts" columns={columns} rows={rows} busy={change.busy} empty="No admins." />
      <div className="mt-8">
        <InviteForm />
      </div>
    </AdminShell>
  );
}
