import { type ChangePassword, changePasswordSchema } from "@trainwise/contract/auth";
import { STORAGE_KEYS } from "@trainwise/contract/constants";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useRevalidator } from "react-router";
import { AdminShell } from "../../components/admin/admin-shell.tsx";
import { Alert, FormField, SubmitButton } from "../../components/ui/form-field.tsx";
import { adminCall, useAdminCall } from "../../lib/admin-client.ts";
import { ApiError, messageOf } from "../../lib/api.ts";
import { resolverFor } from "../../lib/zod-resolver.ts";
import type { Route } from "./+types/account";

/** Who is signed in: also how an expired or revoked session is noticed on opening this page. */
export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  return { session: await adminCall("session", { signal: request.signal }) };
}

export const meta = () => [{ title: "Account | Trainwise" }, { name: "robots", content: "noindex" }];

export default function Account({ loaderData }: Route.ComponentProps) {
  const { session } = loaderData;
  const call = useAdminCall();
  const revalidator = useRevalidator();
  const [outcome, setOutcome] = useState<{ tone: "success" | "error"; message: string }>();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ChangePassword>({ resolver: resolverFor(changePasswordSchema) });

  const onSubmit = handleSubmit(async (values) => {
    setOutcome(undefined);
    try {
      const response = await call("changePassword", { body: values });
      // The change ends every older session, this one included: keep the new token.
      localStorage.setItem(STORAGE_KEYS.adminToken, response.token);
      reset();
      setOutcome({ tone: "success", message: "Password changed. Your other sessions have been signed out." });
      revalidator.revalidate();
    } catch (error) {
      if (error instanceof ApiError) {
        for (const [field, message] of Object.entries(error.fields))
          setError(field as keyof ChangePassword, { message });
      }
      setOutcome({ tone: "error", message: messageOf(error, "The password was not changed.") });
    }
  });

  return (
    <AdminShell title="Account">
      <p className="mb-4">
        Signed in as <strong>{session.username}</strong>.
      </p>
      <section aria-labelledby="change-password" className="max-w-md">
        <h2 id="change-password" className="text-xl font-semibold">
          Change your password
        </h2>
        {outcome && (
          <div className="mt-4">
            <Alert tone={outcome.tone}>{outcome.message}</Alert>
          </div>
        )}
        <form onSubmit={onSubmit} noValidate className="mt-4 space-y-4">
          <FormField
            label="Current password"
            type="password"
            autoComplete="current-password"
            error={errors.currentPassword?.message}
            {...register("currentPassword")}
          />
          <FormField
            label="New password"
            type="password"
            autoComplete="new-password"
            error={errors.newPassword?.message}
            {...register("newPassword")}
          />
          <SubmitButton busy={isSubmitting}>Change password</SubmitButton>
        </form>
      </section>
    </AdminShell>
  );
}
