import { requiredText } from "@trainwise/contract/common";
import { type Feedback, type FeedbackInput, feedbackInputSchema } from "@trainwise/contract/feedback";
import { useCallback, useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { AdminShell } from "../../components/admin-shell.tsx";
import { Alert, FormField, SubmitButton } from "../../components/form-field.tsx";
import { requireAdminToken } from "../../guards.ts";
import { api, messageOf } from "../../lib/api.ts";
import { resolverFor } from "../../lib/zod-resolver.ts";

export function clientLoader() {
  return { token: requireAdminToken() };
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

export default function SubmitFeedback({ loaderData }: { loaderData: { token: string } }) {
  const { token } = loaderData;
  const [outcome, setOutcome] = useState<{ tone: "success" | "error"; message: string }>();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<FeedbackForm>({
    resolver: resolverFor(formSchema),
    // The spec's Admin Token field, pre-filled from this session and editable (design decision 9).
    defaultValues: { adminToken: token },
  });

  const [entries, setEntries] = useState<Feedback[]>();
  const loadEntries = useCallback(() => {
    api<Feedback[]>("/feedback/all", { token }).then(setEntries, () => setEntries([]));
  }, [token]);
  useEffect(loadEntries, [loadEntries]);

  async function change(call: Promise<unknown>, done: string) {
    try {
      await call;
      setOutcome({ tone: "success", message: done });
      loadEntries();
    } catch (error) {
      setOutcome({ tone: "error", message: messageOf(error, "That did not work. Please try again.") });
    }
  }

  const onSubmit = handleSubmit(async ({ adminToken, ...feedback }) => {
    setOutcome(undefined);
    try {
      const response = await api<{ message: string }>("/feedback", {
        method: "POST",
        token: adminToken,
        body: feedback,
      });
      setOutcome({ tone: "success", message: response.message });
      reset({ adminToken });
      loadEntries();
    } catch (error) {
      setOutcome({ tone: "error", message: messageOf(error, "Submission failed") });
    }
  });

  return (
    <AdminShell title="Submit Student Feedback" token={token}>
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
          <SubmitButton busy={isSubmitting}>Submit Feedback</SubmitButton>
        </form>
      </div>
      <section aria-labelledby="all-feedback" className="mt-10">
        <h2 id="all-feedback" className="text-2xl font-semibold">
          All feedback
        </h2>
        <p className="text-sm text-slate-700">Hidden feedback stays here but no longer shows on the home page.</p>
        {!entries && <p role="status">Loading...</p>}
        {entries?.length === 0 && <p className="mt-2">No feedback found.</p>}
        <ul className="mt-4 space-y-3">
          {entries?.map((entry) => (
            <li key={entry._id} className="rounded border border-slate-200 p-4">
              <p>“{entry.feedback}”</p>
              <p className="mt-1 text-sm text-slate-700">
                {entry.name} · {entry.usnNumber} · {entry.emailId} · section {entry.section}, batch {entry.batch}
                {entry.hidden && <strong className="ml-2 text-amber-800">Hidden</strong>}
              </p>
              <div className="mt-2 flex gap-2">
                <button
                  type="button"
                  onClick={() =>
                    void change(
                      api(`/feedback/${entry._id}`, { method: "PATCH", token, body: { hidden: !entry.hidden } }),
                      entry.hidden ? "The feedback shows on the home page again." : "The feedback is hidden.",
                    )
                  }
                  className="rounded border border-brand-700 px-3 py-1 text-sm text-brand-700"
                >
                  {entry.hidden ? "Show" : "Hide"} <span className="sr-only">feedback from {entry.name}</span>
                </button>
                <button
                  type="button"
                  onClick={() => {
                    if (window.confirm(`Delete the feedback from ${entry.name}?`)) {
                      void change(api(`/feedback/${entry._id}`, { method: "DELETE", token }), "Feedback deleted.");
                    }
                  }}
                  className="rounded border border-red-700 px-3 py-1 text-sm text-red-700"
                >
                  Delete <span className="sr-only">feedback from {entry.name}</span>
                </button>
              </div>
            </li>
          ))}
        </ul>
      </section>
    </AdminShell>
  );
}
