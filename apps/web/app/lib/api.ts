// The one way the browser calls the API: every call names its endpoint in the contract's table, which gives its
// method, path and types; JSON in and out, the role's bearer token, and errors as ApiError carrying the server's
// readable message (the "server message" the error texts show) and field messages.

import routes from "virtual:endpoint-routes";
import type { ErrorBody } from "@trainwise/contract/common";
import type { BodyOf, EndpointName, Endpoints, ParamsOf, QueryOf, ResponseOf } from "@trainwise/contract/endpoints";

export class ApiError extends Error {
  readonly status: number;
  readonly fields: Record<string, string>;
  constructor(status: number, message: string, fields: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.fields = fields;
  }
}

/** What a call sends: the path's parameters, its query, its body (or uploaded file) as the endpoint declares them. */
export type CallOptions<Name extends EndpointName> = {
  token?: string | null;
  signal?: AbortSignal;
} & ([ParamsOf<Name>] extends [never] ? { params?: never } : { params: ParamsOf<Name> }) &
  ([QueryOf<Name>] extends [never] ? { query?: never } : { query?: QueryOf<Name> }) &
  (Endpoints[Name] extends { consumes: readonly string[] }
    ? { body?: never; csv?: string; file?: string; image?: Blob }
    : [BodyOf<Name>] extends [never]
      ? { body?: never }
      : { body: BodyOf<Name> });

/** The endpoint's method and path from the contract's table; a name the table does not have is refused. */
function routeOf(name: EndpointName): { method: Endpoints[EndpointName]["method"]; path: string } {
  const route = Object.hasOwn(routes, name) ? routes[name] : undefined;
  if (!route) throw new Error(`${String(name)} is not an endpoint in the contract's table`);
  return route;
}

/**
 * The address of a call under /api: the endpoint's path with its parameters filled in, and its query (values left
 * empty are not sent).
 */
export function addressOf<Name extends EndpointName>(
  name: Name,
  params?: Record<string, string>,
  query?: object,
): string {
  const path = routeOf(name).path.replace(/:([A-Za-z]+)/g, (_match, param: string) =>
    encodeURIComponent(params?.[param] ?? ""),
  );
  const search = queryString(query);
  return `/api${path}${search ? `?${search}` : ""}`;
}

/** A query as the address carries it: values left empty (undefined, null, "") are not sent. */
export function queryString(query: object | undefined): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== "") search.set(key, String(value));
  }
  return search.toString();
}

/** Calls an endpoint of the contract's table by its name and answers what it answers. */
export async function call<Name extends EndpointName>(
  name: Name,
  options: CallOptions<Name>,
): Promise<ResponseOf<Name>> {
  const { params, query, ...rest } = options as {
    params?: Record<string, string>;
    query?: object;
    body?: unknown;
    csv?: string;
    file?: string;
    image?: Blob;
    token?: string | null;
    signal?: AbortSignal;
  };
  const address = addressOf(name, params, query);
  return (await apiResponse<ResponseOf<Name>>(address, { ...rest, method: routeOf(name).method })).data;
}

/** Saves what a file endpoint answers (a certificate) as a file, sending the token the way every call does. */
export async function downloadFile<Name extends EndpointName>(
  name: Name,
  options: { params?: ParamsOf<Name>; token?: string; body?: BodyOf<Name> },
  filename: string,
): Promise<void> {
  const address = addressOf(name, options.params as Record<string, string> | undefined);
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(address, {
    method: routeOf(name).method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  if (!response.ok) throw new ApiError(response.status, "The download failed. Please try again.");
  saveBlob(await response.blob(), filename);
}

/** Saves what the page already holds as a file (a fetched certificate, the personal links shown only once). */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.click();
  URL.revokeObjectURL(url);
}

interface RequestOptions {
  method: Endpoints[EndpointName]["method"];
  body?: unknown;
  /** Sent as text/csv instead of JSON. */
  csv?: string;
  /** An uploaded question file in any format, sent as text/plain (the server reads the format named or detects it). */
  file?: string;
  /** An uploaded image, sent as its own bytes with its own Content-Type. */
  image?: Blob;
  token?: string | null;
  signal?: AbortSignal;
}

async function apiResponse<T>(address: string, options: RequestOptions): Promise<{ data: T; headers: Headers }> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.csv !== undefined) headers["content-type"] = "text/csv";
  if (options.file !== undefined) headers["content-type"] = "text/plain; charset=utf-8";
  if (options.image !== undefined) headers["content-type"] = options.image.type || "application/octet-stream";
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let response: Response;
  try {
    response = await fetch(address, {
      method: options.method,
      headers,
      body:
        options.csv ??
        options.file ??
        options.image ??
        (options.body === undefined ? undefined : JSON.stringify(options.body)),
      credentials: "same-origin",
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    throw new ApiError(0, "Cannot reach the server. Check your connection and try again.");
  }
  const text = await response.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    // Not the API's JSON: a proxy's or a captive portal's page (a 502 from a load balancer while an instance
    // restarts). Nothing the API said; callers treat it like a dropped connection and may try again.
    throw new ApiError(
      response.ok ? 0 : response.status,
      response.status >= 500 || response.ok
        ? "Cannot reach the server. Check your connection and try again."
        : response.statusText || "The request failed.",
    );
  }
  if (!response.ok) {
    const body = data as Partial<ErrorBody> | undefined;
    throw new ApiError(response.status, body?.error ?? body?.message ?? response.statusText, body?.fields ?? {});
  }
  return { data: data as T, headers: response.headers };
}

/** A dropped connection, a proxy's error page or a 5xx: worth trying again. A 4xx is the server's final word. */
export function isTransient(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 0 || error.status >= 500);
}

/**
 * Retries a call while the network or the server fails (up to 6 more tries over about 15 s, waiting longer each
 * time); a refusal is final. The call must be safe to repeat: a Next names its position, a registration carries
 * its key.
 */
export async function withRetry<T>(call: () => Promise<T>, onRetry: () => void = () => {}): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!isTransient(error) || attempt >= 6) throw error;
      onRetry();
      await new Promise((resolve) => setTimeout(resolve, Math.min(500 * 2 ** attempt, 4000)));
    }
  }
}

/** The server's message for a failed call, or the screen's own fallback text (docs/product.md#error-texts). */
export function messageOf(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}
