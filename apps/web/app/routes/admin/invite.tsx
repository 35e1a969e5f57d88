// /admin/invite/:token — where an invited admin sets their own password, once, with the link an owner sent.
// Public (the invitee has no session yet), so it uses the plain API client, not the admin area's.
import { type AcceptInvite, acceptInviteSchema, type Invitation, ROLE_LABELS } from "@trainwise/contract/admin-roles";

import { Suspense, useState } from "react";
import { useForm } from "react-hook-form";
import { Await, Link, useAsyncError } from "react-router";
import { SignInFrame } from "../../components/site/sign-in-frame.tsx";
import { Alert, FormField, SubmitButton } from "../../components/ui/form-field.tsx";
import { ApiError, call, messageOf } from "../../lib/api.ts";
import { resolverFor } from "../../lib/zod-resolver.ts";
import type { Route } from "./+types/invite";

export const meta = () => [{ title: "Set your admin password | Trainwise" }, { name: "robots", content: "noindex" }];

export function clientLoader({ params, request }: Route.ClientLoaderArgs) {
  // Not awaited: the page opens at once and says it is checking the link.
  const invitation = call("invitation", { params: { token: params.token }, signal: request.signal });
  // The page shows a refusal itself (<Await>); this only keeps the browser from reporting it as unhandled.
  invitation.catch(() => undefined);
  return { invitation };
}

export default function AcceptInvitation({ loaderData, params }: Route.ComponentProps) {
  return (
    <SignInFrame>
      <h1 className="mb-6 text-3xl font-bold text-brand-900">Set your admin password</h1>
      <Suspense fallback={<p role="status">Checking your invitation…</p>}>
        <Await resolve={loaderData.invitation} errorElement={<InvitationUnusable />}>
          {(invitation) => <SetPassword invitation={invitation} token={params.token} />}
        </Await>
      </Suspense>
    </SignInFrame>
  );
}

function InvitationUnusable() {
  return <Alert tone="error">{messageOf(useAsyncError(), "This invitation link could not be checked.")}</Alert>;
}

type State = { kind: "open" } | { kind: "gone"; message: string } | { kind: "done"; message: string };

function SetPassword({ invitation, token }: { invitation: Invitation; token: string }) {
  const [state, setState] = useState<State>({ kind: "open" });
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<AcceptInvite>({ resolver: resolverFor(acceptInviteSchema) });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const { message } = await call("acceptInvitation", { params: { token }, body: values });
      setState({ kind: "done", message });
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && error.fields.password) {
        setError("password", { message: error.fields.password });
      } else {
        setState({ kind: "gone", message: messageOf(error, "Your password was not set. Please try again.") });
      }
    }
  });

  return (
    <>
      {state.kind === "gone" && <Alert tone="error">{state.message}</Alert>}
      {state.kind === "done" && (
        <>
          <Alert tone="success">{state.message}</Alert>
          <Link to="/admin/login" className="mt-4 inline-block font-semibold text-brand-700 underline">
            Go to Admin Login
          </Link>
        </>
      )}
      {state.kind === "open" && (
        <>
          <p className="mb-4">
            You are invited as <strong>{invitation.username}</strong> ({ROLE_LABELS[invitation.role]}). Choose a
            password of at least 12 characters. This link works once.
          </p>
          <form onSubmit={onSubmit} noValidate className="space-y-4">
            <FormField
              label="New password"
              type="password"
              autoComplete="new-password"
              error={errors.password?.message}
              {...register("password")}
            />
            <SubmitButton busy={isSubmitting}>Set password</SubmitButton>
          </form>
        </>
      )}
    </>
  );
}
