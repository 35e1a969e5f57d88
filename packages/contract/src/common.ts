// Shapes shared by several calls: ids, the error body and the limits the whole product agrees on.
import { z } from "zod";

export const idSchema = z.uuid({ error: "Not a valid id" });
export const idParamsSchema = z.object({ id: idSchema });

/** Every non-2xx answer of the API has this body. `error` is a sentence a person can read. */
export const errorBodySchema = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** A token answer: the spec's auth responses carry only `token`. */
export const tokenResponseSchema = z.object({ token: z.string() });
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

export const messageResponseSchema = z.object({ message: z.string() });

/** A required, trimmed text field with the spec's "X is required" message and a sane upper bound. */
export function requiredText(label: string, max = 200) {
  return z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, { error: `${label} is required`, abort: true })
    .max(max, { error: `${label} must be at most ${max} characters` });
}

/** `page` and `pageSize` of a paged list; without `page` a list comes back whole. */
export const pagingQuerySchema = z.object({
  page: z.coerce
    .number({ error: "page must be a number" })
    .int()
    .min(1, { error: "page must be at least 1" })
    .optional(),
  pageSize: z.coerce
    .number({ error: "pageSize must be a number" })
    .int()
    .min(1, { error: "pageSize must be at least 1" })
    .max(200, { error: "pageSize must be at most 200" })
    .optional(),
});
