// The admin area's one data layer. Screens read through their route's loader (the view's search, filters, sort
// and page are in the address, and React Router cancels and drops a superseded load), and change things through
// `useAdminAction` (one at a time, then the loader runs again). Every call is typed from the contract's table of
// admin endpoints and carries the admin's token; a refused session (401: expired, revoked or forged token) is
// handled here and nowhere else — the token is forgotten and the browser goes to /admin/login, which says why.
// A 403 (the admin's role may not do this) thrown from a loader reaches the admin layout's error boundary, which
// shows "Not allowed" inside the admin frame.

import type { AdminSession } from "@trainwise/contract/admin-roles";
import { STORAGE_KEYS } from "@trainwise/contract/constants";
import type { AdminEndpointName, DownloadName, Endpoints, ParamsOf, ResponseOf } from "@trainwise/contract/endpoints";
import { useCallback, useRef, useState } from "react";
import { redirect, useNavigate, useRevalidator } from "react-router";
import { config, type z } from "zod";
import { rememberSessionEnded } from "./admin-session.ts";
import { type CallOptions as ApiCallOptions, ApiError, addressOf, call, queryString } from "./api.ts";
import { followEventStream, type StreamConnection } from "./event-stream.ts";

// The pages' Content-Security-Policy has no 'unsafe-eval': zod must not probe for `new Function`.
config({ jitless: true });

/** What `call` (api.ts) takes, with the admin's token added here and the one path parameter named `id`. */
type CallOptions<Name extends AdminEndpointName> = Omit<ApiCallOptions<Name>, "token" | "params"> &
  ([ParamsOf<Name>] extends [never] ? { id?: never } : { id: string });

/** An admin screen names the one thing a path is about as `id`. */
function paramsOf(id: string | undefined): Record<string, string> | undefined {
  return id === undefined ? undefined : { id };
}

/** The stored admin token, or off to /admin/login. */
export function adminTokenOrLogin(): string {
  const token = localStorage.getItem(STORAGE_KEYS.adminToken);
  if (!token) throw redirect("/admin/login");
  return token;
}

/** Forgets the refused session and answers with the redirect to the login page, which shows why. */
function sessionEnded(): Response {
  rememberSessionEnded();
  return redirect("/admin/login");
}

/** Only a refused token ends the session (decision 005): a dropped connection or a 500 is shown in place. */
function refusedSession(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

/** Calls an admin endpoint from a loader; throws the login redirect when the session is refused. */
export async function adminCall<Name extends AdminEndpointName>(
  name: Name,
  options: CallOptions<Name>,
): Promise<ResponseOf<Name>> {
  const token = adminTokenOrLogin();
  const { id, query, body, csv, file, image, signal } = options as {
    id?: string;
    query?: object;
    body?: unknown;
    csv?: string;
    file?: string;
    image?: Blob;
    signal?: AbortSignal;
  };
  try {
    // Each admin endpoint's path names at most its `id`; the typed options above say which need one.
    return await call(name, { params: paramsOf(id), query, token, body, csv, file, image, signal } as never);
  } catch (error) {
    if (refusedSession(error)) throw sessionEnded();
    throw error;
  }
}

let sessionCache: { token: string; session: Promise<AdminSession> } | undefined;

/** Who is signed in and their role: asked once per token, shared by the layout's and the screens' loaders. */
export function currentAdmin(): Promise<AdminSession> {
  const token = adminTokenOrLogin();
  if (sessionCache?.token !== token) {
    const session = adminCall("session", {});
    sessionCache = { token, session };
    // A failed answer (a dropped connection) is asked again next time rather than remembered.
    session.catch(() => {
      if (sessionCache?.session === session) sessionCache = undefined;
    });
  }
  return sessionCache.session;
}

/**
 * Downloads an export as a file. The page asks for a single-use ticket with the admin's token, then lets the
 * browser fetch the ticket's address itself (decision 022): the file streams straight to disk and the download
 * shows at once, however large, instead of waiting in the page's memory. A refused session ends as above.
 */
export async function adminDownload<Name extends DownloadName>(
  name: Name,
  filename: string,
  options: { id?: string; query?: object } = {},
): Promise<void> {
  const query = queryString(options.query) || undefined;
  const { url } = await adminCall("downloadTicket", { body: { export: name, id: options.id, query } });
  const link = document.createElement("a");
  link.href = url;
  // Saved as a file even if the answer is an error, so the admin area is never navigated away from.
  link.download = filename;
  link.click();
}

/** The names of the admin endpoints that answer with server-sent events. */
type StreamEndpointName = {
  [Name in AdminEndpointName]: Endpoints[Name]["response"] extends "event-stream" ? Name : never;
}[AdminEndpointName];

/**
 * Follows an admin endpoint's server-sent events until `signal` aborts (the admin left the screen), as
 * followEventStream does; a refused session (401) rejects with the redirect to /admin/login, like every other
 * admin call.
 */
export function followAdminStream<Name extends StreamEndpointName>(
  name: Name,
  options: {
    id: string;
    signal: AbortSignal;
    onEvent: (event: string, data: string) => void;
    onConnection: (connection: StreamConnection) => void;
  },
): Promise<void> {
  const { id, ...handlers } = options;
  return followEventStream({
    address: addressOf(name, { id }),
    token: () => localStorage.getItem(STORAGE_KEYS.adminToken),
    sessionRefused: sessionEnded,
    ...handlers,
  });
}

/**
 * Reads a table's query from the address bar with the contract's schema: a hand-edited or outdated URL falls back
 * to the defaults for the values that do not parse, instead of an error page.
 */
export function tableQueryFrom<Schema extends z.ZodObject>(schema: Schema, url: string): z.output<Schema> {
  const params = Object.fromEntries(new URL(url).searchParams);
  const parsed = schema.safeParse(params);
  if (parsed.success) return parsed.data;
  const bad = new Set(parsed.error.issues.map((issue) => String(issue.path[0])));
  const kept = Object.fromEntries(Object.entries(params).filter(([key]) => !bad.has(key)));
  const retried = schema.safeParse(kept);
  return retried.success ? retried.data : schema.parse({});
}

/**
 * What a change answers the screen: the server's message, per-row problems of an import, and the refused fields
 * of a form (by the contract's field names, for the form to show under each field).
 */
export type ActionOutcome = { ok: boolean; message: string; details?: string[]; fields?: Record<string, string> };

/** Runs a change and turns a refusal other than a lost session into an outcome the screen shows. */
export async function outcomeOf(run: () => Promise<string>, fallback: string): Promise<ActionOutcome> {
  try {
    return { ok: true, message: await run() };
  } catch (error) {
    if (error instanceof Response) throw error;
    const fields = error instanceof ApiError && Object.keys(error.fields).length > 0 ? error.fields : undefined;
    const details = fields && Object.entries(fields).map(([where, what]) => `${where}: ${what}`);
    return {
      ok: false,
      message: error instanceof ApiError && error.message ? error.message : fallback,
      details,
      fields,
    };
  }
}

/**
 * `adminCall` for a screen's event handlers (inside `useAdminAction`, and the few screens that call outside a
 * change): the same typed call, and a refused session ends the same way, by going to /admin/login.
 */
export function useAdminCall() {
  const navigate = useNavigate();
  return useCallback(
    async <Name extends AdminEndpointName>(name: Name, options: CallOptions<Name>): Promise<ResponseOf<Name>> => {
      try {
        return await adminCall(name, options);
      } catch (error) {
        if (error instanceof Response) {
          navigate(error.headers.get("Location") ?? "/admin/login", { replace: true });
          // The page is going away; the caller's own error handling must not show anything.
          return new Promise<never>(() => {});
        }
        throw error;
      }
    },
    [navigate],
  );
}

/**
 * A change made from a screen (create, delete, hide, export…): one at a time — a second press while the first is
 * on its way does nothing, even before the button is drawn disabled — then the screen's data is fetched again.
 */
export function useAdminAction() {
  const call = useAdminCall();
  const navigate = useNavigate();
  const { revalidate } = useRevalidator();
  const running = useRef(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<ActionOutcome>();
  const run = useCallback(
    async (
      work: (adminCallFromScreen: typeof call) => Promise<string>,
      fallback: string,
      options: { refresh?: boolean } = {},
    ): Promise<ActionOutcome | undefined> => {
      if (running.current) return undefined;
      running.current = true;
      setBusy(true);
      setOutcome(undefined);
      try {
        const result = await outcomeOf(() => work(call), fallback);
        if (result.ok && options.refresh !== false) await revalidate();
        setOutcome(result);
        return result;
      } catch (error) {
        // A download's refused session (the calls themselves handle theirs in `useAdminCall`).
        if (!(error instanceof Response)) throw error;
        navigate(error.headers.get("Location") ?? "/admin/login", { replace: true });
        return undefined;
      } finally {
        running.current = false;
        setBusy(false);
      }
    },
    [call, revalidate, navigate],
  );
  return { busy, outcome, run, setOutcome };
}

/**
 * A table's CSV export: the download starts from the table's current filters (read when the button is pressed),
 * the button is busy meanwhile, and a failure is kept to show beside it.
 */
export function useTableExport<Name extends DownloadName>(name: Name, filename: string, filters: () => object) {
  const { busy, outcome, run } = useAdminAction();
  const start = () =>
    void run(
      async () => {
        await adminDownload(name, filename, { query: filters() });
        return "The download has started.";
      },
      "The download failed.",
      { refresh: false },
    );
  return { start, busy, failed: outcome && !outcome.ok ? outcome : undefined };
}
