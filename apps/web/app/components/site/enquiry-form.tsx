// The enquiry form: the contact page's (the visitor writes the subject) and each training programme's (the
// subject and the programme are the page's). Both send the same enquiry, checked by the same schema, which
// admins read under Enquiries.
import type { ContactFormValues, ContactInput, TrainingProgramme } from "@trainwise/contract/contact";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { ApiError, call, messageOf } from "../../lib/api.ts";
import { lazyResolver } from "../../lib/lazy-resolver.ts";
import { FormField, FormOutcome, SubmitButton } from "../ui/form-field.tsx";

/** The subject an enquiry from a programme's page is filed under. */
export const programmeSubject = (programme: TrainingProgramme) => `${programme} enquiry`;

export function EnquiryForm({
  programme,
  submitLabel = "Submit",
}: {
  programme?: TrainingProgramme;
  submitLabel?: string;
}) {
  const empty: ContactInput = {
    name: "",
    email: "",
    subject: programme ? programmeSubject(programme) : "",
    phone: "",
    message: "",
    programme,
  };
  const [outcome, setOutcome] = useState<{ tone: "success" | "error"; message: string }>();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<ContactFormValues, unknown, ContactInput>({
    // The rules (zod and the schema) load on the first check, not with the page.
    resolver: lazyResolver(async () => {
      const [{ contactInputSchema }, { resolverFor }] = await Promise.all([
        import("@trainwise/contract/contact"),
        import("../../lib/zod-resolver.ts"),
      ]);
      return resolverFor(contactInputSchema);
    }),
    defaultValues: empty,
  });

  const onSubmit = handleSubmit(async (values) => {
    setOutcome(undefined);
    try {
      const { message } = await call("sendEnquiry", { body: values });
      setOutcome({ tone: "success", message });
      reset(empty);
    } catch (error) {
      if (error instanceof ApiError) {
        for (const [field, message] of Object.entries(error.fields)) setError(field as keyof ContactInput, { message });
      }
      setOutcome({ tone: "error", message: messageOf(error, "Sending failed. Please try again.") });
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="mt-4 space-y-4">
      <FormField label="Name" autoComplete="name" required error={errors.name?.message} {...register("name")} />
      <FormField
        label="Email"
        type="email"
        autoComplete="email"
        required
        error={errors.email?.message}
        {...register("email")}
      />
      {!programme && <FormField label="Subject" required error={errors.subject?.message} {...register("subject")} />}
      <FormField
        label="Phone Number"
        type="tel"
        autoComplete="tel"
        required
        error={errors.phone?.message}
        {...register("phone")}
      />
      <FormField label="Message (optional)" multiline error={errors.message?.message} {...register("message")} />
      {outcome && <FormOutcome tone={outcome.tone}>{outcome.message}</FormOutcome>}
      <div className="flex gap-3">
        <SubmitButton busy={isSubmitting}>{submitLabel}</SubmitButton>
        <button
          type="button"
          onClick={() => {
            reset(empty);
            clearErrors();
            setOutcome(undefined);
          }}
          className="rounded border border-slate-400 px-6 py-3 font-semibold"
        >
          Cancel
        </button>
      </div>
    </form>
  );
}
