import { STORAGE_KEYS } from "@trainwise/contract/constants";
import { useEffect, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { SignInFrame } from "../../components/site/sign-in-frame.tsx";
import { Alert, FormField, SubmitButton } from "../../components/ui/form-field.tsx";
import { copyOf, pageMeta } from "../../content/page-meta.ts";
import { pages } from "../../content/pages/portal.ts";
import { takeSessionNotice } from "../../lib/admin-session.ts";
import { call, messageOf } from "../../lib/api.ts";
import type { Route } from "./+types/login";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(pages, location.pathname);

export default function AdminLogin() {
  const navigate = useNavigate();
  // Set by an admin page that found the session gone, e.g. 'Unauthorized or session expired'.
  const notice = (useLocation().state as { notice?: string } | null)?.notice;
  const [failure, setFailure] = useState<string | undefined>(notice);
  const [busy, setBusy] = useState(false);
  // Left by the admin area when the server refused the session (expired, revoked or forged token).
  useEffect(() => {
    const ended = takeSessionNotice();
    if (ended) setFailure(ended);
  }, []);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setFailure(undefined);
    try {
      const { token } = await call("adminLogin", {
        body: { username: String(form.get("username") ?? ""), password: String(form.get("password") ?? "") },
      });
      localStorage.setItem(STORAGE_KEYS.adminToken, token);
      navigate("/admin/dashboard");
    } catch (error) {
      setFailure(messageOf(error, "Login failed"));
      setBusy(false);
    }
  }

  return (
    <SignInFrame>
      <h1 className="text-3xl font-bold text-brand-900">{copyOf(pages, "/admin/login").heading}</h1>
      <div className="mt-6">
        {failure && (
          <div className="mb-4">
            <Alert tone="error">{failure}</Alert>
          </div>
        )}
        {/* No client-side checks on this form (docs/product.md#admin-login); the server answers every case. */}
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <FormField label="Username" name="username" autoComplete="username" />
          <FormField label="Password" name="password" type="password" autoComplete="current-password" />
          <SubmitButton busy={busy}>Login</SubmitButton>
        </form>
      </div>
    </SignInFrame>
  );
}
