import { zodResolver } from "@hookform/resolvers/zod";
import { requiredText } from "@trainwise/contract/common";
import { type FeedbackInput, feedbackInputSchema } from "@trainwise/contract/feedback";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { AdminShell } from "../../components/admin-shell.tsx";
import { Alert, FormField } from "../../components/form-field.tsx";
import { requireAdminToken } from "../../guards.ts";
import { api, messageOf } from "../../lib/api.ts";

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
    resolver: zodResolver(formSchema),
    // The spec's Admin Token field, pre-filled from this session and editable (design decision 9).
    defaultValues: { adminToken: token },
  });

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
          <button
            type="submit"
            disabled={isSubmitting}
            className="rounded bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-900 disabled:opacity-60"
          >
            Submit Feedback
          </button>
        </form>
      </div>
    </AdminShell>
  );
}
