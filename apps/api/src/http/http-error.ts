// An expected refusal, thrown by services and route handlers alike: the app's error handler (plugins/errors.ts)
// answers it with its status, its message a person can read, and the headers its status calls for.
import type { ErrorBody } from "@trainwise/contract/common";

export class HttpError extends Error {
  readonly statusCode: number;
  readonly fields: Record<string, string> | undefined;
  readonly headers: Record<string, string> | undefined;
  constructor(statusCode: number, message: string, fields?: Record<string, string>, headers?: Record<string, string>) {
    super(message);
    this.statusCode = statusCode;
    this.fields = fields;
    this.headers = headers;
  }
}

/** The body of every non-2xx answer. */
export function errorBody(statusCode: number, message: string, fields?: Record<string, string>): ErrorBody {
  return fields ? { statusCode, error: message, message, fields } : { statusCode, error: message, message };
}
