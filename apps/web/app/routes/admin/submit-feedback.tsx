import { feedbackTableQuerySchema } from "@trainwise/contract/admin-tables";
import { requiredText } from "@trainwise/contract/common";
import { type Feedback, type FeedbackInput, feedbackInputSchema } from "@trainwise/contract/feedback";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { AdminShell } from "../../components/admin/admin-shell.tsx";
import {
  BusyNote,
  type Column,
  DataTable,
  ExportButton,
  FilterSelect,
  PageLinks,
  SearchBox,
  SortSelect,
  TableToolbar,
  TextFilter,
  useTableBusy,
} from "../../components/admin/admin-table.tsx";
import { Alert, FormField, SubmitButton } from "../../components/ui/form-field.tsx";
import {
  adminCall,
  adminTokenOrLogin,
  tableQueryFrom,
  useAdminAction,
  useTableExport,
} from "../../lib/admin-client.ts";
import { call } from "../../lib/api.ts";
import { formatDateTime } from "../../lib/format.ts";
import { resolverFor } from "../../lib/zod-resolver.ts";
import type { Route } from "./+types/submit-feedback";

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const query = tableQueryFrom(feedbackTableQuerySchema, request.url);
  return { token: adminTokenOrLogin(), page: await adminCall("feedbackTable", { query, signal: request.signal }) };
}

export const meta = () => [{ title: "Submit Student Feedback | Trainwise" }, { name: "robots", content: "noindex" }];

type FeedbackForm = FeedbackInput & { adminToken: string };

const FIELDS: { name: keyof FeedbackInput; label: string; type?: string; multiline?: boolean }[] = [
  { name: "name", label: "Name" },
  { name: "usnNumber", label: "USN Number" },
  { name: "emailId", label: "Email ID", type: "email" },
  { name: "section", label: "Section" },
  { name: "batch", label: "Batch" },
  { name: "feedback", label: "Feedback", multiline: true },
];

const formSchema = feedbackInputSchema.extend({ adminToken: requiredText("Admin Token", 4000) });

export default function SubmitFeedback({ loaderData }: Route.ComponentProps) {
  const { token, page } = loaderData;
  const busy = useTableBusy();
  const change = useAdminAction();
  const exporter = useTableExport("feedbackExport", "feedback.csv", () => {
    const { search, batch, visibility } = tableQueryFrom(feedbackTableQuerySchema, window.location.href);
    return { search, batch, visibility };
  });
  const [outcome, setOutcome] = useState<{ tone: "success" | "error"; message: string }>();
  const {
    register,
    handleSubmit,
    reset,
    getValues,
    formState: { errors },
  } = useForm<FeedbackForm>({
    resolver: resolverFor(formSchema),
    // The Admin Token field, pre-filled from this session and editable (docs/product.md#public-feedback).
    defaultValues: { adminToken: token },
  });

  async function send(work: Parameters<typeof change.run>[0], fallback: string, after?: () => void) {
    setOutcome(undefined);
    const result = await change.run(work, fallback);
    if (!result) return;
    setOutcome({ tone: result.ok ? "success" : "error", message: result.message });
    if (result.ok) after?.();
  }

  // Sent with the token typed in the form's Admin Token field (the original product's behaviour): a wrong one is
  // this form's error ("Submission failed" or the server's words), not the end of the admin's own session.
  const onSubmit = handleSubmit(({ adminToken, ...feedback }) =>
    send(
      async () => (await call("createFeedback", { token: adminToken, body: feedback })).message,
      "Submission failed",
      () => reset({ adminToken: getValues("adminToken") }),
    ),
  );

  const entries: Feedback[] = page.rows;

  const setHidden = (entry: Feedback) =>
    void send(async (call) => {
      await call("setFeedbackHidden", { id: entry._id, body: { hidden: !entry.hidden } });
      return entry.hidden ? "The feedback shows on the home page again." : "The feedback is hidden.";
    }, "That did not work. Please try again.");
  const remove = (entry: Feedback) => {
    if (!window.confirm(`Delete the feedback from ${entry.name}?`)) return;
    void send(async (call) => {
      await call("deleteFeedback", { id: entry._id });
      return "Feedback deleted.";
    }, "That did not work. Please try again.");
  };
  const exportFailed = exporter.failed;
  const columns: Column<Feedback>[] = [
    {
      header: "Feedback",
      cell: (entry) => <span className="block min-w-48 whitespace-pre-line">{entry.feedback}</span>,
    },
    { header: "Name", cell: (entry) => entry.name },
    { header: "USN Number", cell: (entry) => entry.usnNumber, className: "whitespace-nowrap" },
    { header: "Email ID", cell: (entry) => entry.emailId },
    { header: "Section", cell: (entry) => entry.section },
    { header: "Batch", cell: (entry) => entry.batch },
    { header: "Received", cell: (entry) => formatDateTime(entry.timestamp), className: "whitespace-nowrap" },
    {
      header: "Home page",
      cell: (entry) => (entry.hidden ? <strong className="text-amber-800">Hidden</strong> : "Shown"),
    },
    {
      header: "Actions",
      cell: (entry) => (
        <div className="flex gap-2">
          <button
            type="button"
            disabled={change.busy}
            onClick={() => setHidden(entry)}
            className="rounded border border-brand-700 px-3 py-1 text-sm text-brand-700 disabled:opacity-50"
          >
            {entry.hidden ? "Show" : "Hide"} <span className="sr-only">feedback from {entry.name}</span>
          </button>
          <button
            type="button"
            disabled={change.busy}
            onClick={() => remove(entry)}
            className="rounded border border-red-700 px-3 py-1 text-sm text-red-700 disabled:opacity-50"
          >
            Delete <span className="sr-only">feedback from {entry.name}</span>
          </button>
        </div>
      ),
    },
  ];

  return (
    <AdminShell title="Submit Student Feedback">
      <div className="max-w-2xl">
        {outcome && (
          <div className="mb-4">
            <Alert tone={outcome.tone}>{outcome.message}</Alert>
          </div>
        )}
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          {FIELDS.map((field) => (
            <FormField
              key={field.name}
              label={field.label}
              type={field.type ?? "text"}
              multiline={field.multiline}
              required
              error={errors[field.name]?.message}
              {...register(field.name)}
            />
          ))}
          <FormField
            label="Admin Token"
            type="password"
            required
            autoComplete="off"
            error={errors.adminToken?.message}
            {...register("adminToken")}
          />
          <SubmitButton busy={change.busy}>Submit Feedback</SubmitButton>
        </form>
      </div>
      <section aria-labelledby="all-feedback" className="mt-10">
        <h2 id="all-feedback" className="text-2xl font-semibold">
          All feedback
        </h2>
        <p className="text-sm text-slate-700">Hidden feedback stays here but no longer shows on the home page.</p>
        <div className="mt-3">
          <TableToolbar>
            <SearchBox label="Search feedback" />
            <TextFilter label="Filter by batch" name="batch" />
            <FilterSelect
              label="Shown on the home page"
              name="visibility"
              allLabel="All feedback"
              choices={[
                ["shown", "Shown"],
                ["hidden", "Hidden"],
              ]}
            />
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
          {exportFailed && (
            <div className="mt-3">
              <Alert tone="error">{exportFailed.message}</Alert>
            </div>
          )}
        </div>
        <BusyNote busy={busy} />
        <DataTable caption="Feedback entries" columns={columns} rows={entries} busy={busy} empty="No feedback found." />
        <PageLinks of={page} label="Feedback" noun={["entry", "entries"]} />
      </section>
    </AdminShell>
  );
}
