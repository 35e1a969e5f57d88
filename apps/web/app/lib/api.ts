// The one way the browser calls the API: JSON in and out, the role's bearer token, and errors as ApiError
// carrying the server's readable message (the "server message" the error texts show) and field messages.
import type { ErrorBody } from "@trainwise/contract/common";

export class ApiError extends Error {
  readonly status: number;
  readonly fields: Record<string, string>;
  constructor(status: number, message: string, fields: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.fields = fields;
  }
}

interface RequestOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
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

export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await apiResponse<T>(path, options)).data;
}

/** Saves what a CSV endpoint returns as a file, sending the token the way every admin call does. */
export async function downloadFile(path: string, token: string, filename: string): Promise<void> {
  const response = await fetch(`/api${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new ApiError(response.status, "The download failed. Please try again.");
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.click();
  URL.revokeObjectURL(url);
}

async function apiResponse<T>(path: string, options: RequestOptions): Promise<{ data: T; headers: Headers }> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.csv !== undefined) headers["content-type"] = "text/csv";
  if (options.file !== undefined) headers["content-type"] = "text/plain; charset=utf-8";
  if (options.image !== undefined) headers["content-type"] = options.image.type || "application/octet-stream";
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let response: Response;
  try {
    response = await fetch(`/api${path}`, {
      method: options.method ?? "GET",
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
