// How an endpoint of the contract's table is written down: its shape, who may call it, and the helpers the
// table's parts use to declare one.
import type { z } from "zod";
import type { AdminRole, AuditAction } from "../admin-roles.ts";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Who may call an endpoint: anyone, a registered student (their token), or an admin of at least `role`. */
export type Access =
  | { readonly who: "public" }
  | {
      readonly who: "student";
      /**
       * Sitting the test: the drive's exam-room rules (its allowed addresses) apply as well as the token. Reading
       * one's result later is not sitting it.
       */
      readonly sitting?: boolean;
    }
  | {
      readonly who: "admin";
      readonly role: AdminRole;
      /** A change recorded in the audit log under this action when it answers 2xx. */
      readonly audit?: AuditAction;
      /** The changed entity is the caller's own account (there is no `:id` in the path). */
      readonly self?: boolean;
    };

/** Answers that are not JSON: a file to download (CSV, GIFT, XML, PDF), an image, or server-sent events. */
export type RawResponse = "file" | "image" | "event-stream";

export interface Endpoint {
  readonly method: Method;
  /** Under /api. A `:name` segment is a path parameter; `:id` is a uuid unless `params` says otherwise. */
  readonly path: string;
  readonly access: Access;
  /** One line for the API's documentation (/api/docs). */
  readonly summary: string;
  readonly description?: string;
  readonly params?: z.ZodObject;
  readonly query?: z.ZodType;
  /** The JSON body, or with `consumes` the uploaded text itself. */
  readonly body?: z.ZodType;
  /** The body is a file sent as one of these types instead of JSON (a CSV, a question file, an image). */
  readonly consumes?: readonly string[];
  /** The success status; 200 unless given. */
  readonly status?: 200 | 201 | 204;
  readonly response: z.ZodType | RawResponse;
}

export function endpoint<const E extends Endpoint>(definition: E): E {
  return definition;
}

export const anyone = { who: "public" } as const;
export const student = { who: "student" } as const;
/** A student sitting the test, where the drive's exam-room rules apply. */
export const sitting = { who: "student", sitting: true } as const;
export function admin<const Role extends AdminRole, const Action extends AuditAction | undefined = undefined>(
  role: Role,
  audit?: Action,
) {
  return (audit ? { who: "admin", role, audit } : { who: "admin", role }) as {
    who: "admin";
    role: Role;
    audit: Action;
  };
}

/** Filters of a CSV export: the table's own, without paging or sorting. */
export const exportQuery = <Schema extends z.ZodObject>(schema: Schema) =>
  schema.omit({ page: true, pageSize: true, sort: true, order: true });
