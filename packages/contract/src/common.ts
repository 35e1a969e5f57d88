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

/** A token answer: the original auth answers carry only `token` (docs/product.md#original-api-calls). */
export const tokenResponseSchema = z.object({ token: z.string() });
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

export const messageResponseSchema = z.object({ message: z.string() });

/**
 * Control characters (C0, DEL and C1) have no place in anything a person types, and PostgreSQL cannot store NUL
 * at all; a UTF-16 half without its pair is not text either (it would be stored as U+FFFD). Multiline fields may
 * hold tabs and line breaks (a carriage return only as part of CRLF).
 */
const CONTROL_CHARACTER = /\p{Cc}/u;
const CONTROL_CHARACTER_IN_MULTILINE = /\r(?!\n)|(?![\t\n\r])\p{Cc}/u;
const LONE_SURROGATE = /\p{Cs}/u;
/**
 * Characters that turn the direction of the text around them (embeddings, overrides, isolates: "Trojan Source")
 * or that show nothing at all (zero-width space, word joiner, a byte order mark inside text): with them two
 * options, categories or names that look the same are different, and a line can read other than it is stored.
 * The zero-width joiner and non-joiner stay allowed: Indic scripts and emoji need them.
 */
const DECEPTIVE_CHARACTER = /[\u202A-\u202E\u2066-\u2069\u200B\u2060\uFEFF]/u;

export interface TextOptions {
  /** Allows tabs and line breaks: the feedback text, the contact message, a question's text. */
  multiline?: boolean;
}

/** Whether text keeps the product's text rules; for values read outside a schema (environment, command line). */
export function isPlainText(value: string, options: TextOptions = {}): boolean {
  const control = options.multiline ? CONTROL_CHARACTER_IN_MULTILINE : CONTROL_CHARACTER;
  return !control.test(value) && !LONE_SURROGATE.test(value) && !DECEPTIVE_CHARACTER.test(value);
}

/** Adds the product's text rules to a string schema: no control characters, no broken Unicode, no deception. */
export function withTextRules(schema: z.ZodString, label: string, options: TextOptions = {}): z.ZodString {
  const control = options.multiline ? CONTROL_CHARACTER_IN_MULTILINE : CONTROL_CHARACTER;
  return schema
    .refine((value) => !control.test(value), { error: `${label} must not contain control characters` })
    .refine((value) => !LONE_SURROGATE.test(value), { error: `${label} must not contain invalid Unicode characters` })
    .refine((value) => !DECEPTIVE_CHARACTER.test(value), {
      error: `${label} must not contain invisible characters or characters that change the text's direction`,
    });
}

/** A required, trimmed text field with the "X is required" message the forms show and a sane upper bound. */
export function requiredText(label: string, max = 200, options: TextOptions = {}) {
  return withTextRules(
    z
      .string({ error: `${label} is required` })
      .trim()
      .min(1, { error: `${label} is required`, abort: true }),
    label,
    options,
  ).max(max, { error: `${label} must be at most ${max} characters` });
}

/** An optional, trimmed text field: the same rules as `requiredText`, but it may be left out or empty. */
export function optionalText(label: string, max = 200, options: TextOptions = {}) {
  return withTextRules(z.string({ error: `${label} must be text` }).trim(), label, options).max(max, {
    error: `${label} must be at most ${max} characters`,
  });
}

/** A search or filter term from a query string. */
export function searchText(label: string, max = 200) {
  return optionalText(label, max).optional();
}

/** `page` and `pageSize` of a paged list; without `page` a list comes back whole. */
/**
 * The most rows any list answers at once. The older lists (the whole bank, every student, every result…) answer
 * their first this many rows when no page is asked for, with the total in the X-Total-Count header; a client reads
 * further with `page` and `pageSize`. No request makes the server build an unbounded answer.
 */
export const LIST_CAP = 1000;

/** A list's answer: at most `LIST_CAP` rows. */
export function listOf<Row extends z.ZodType>(row: Row) {
  return z.array(row).max(LIST_CAP);
}

export const pagingQuerySchema = z.object({
  page: z.coerce
    .number({ error: "page must be a number" })
    .min(1, { error: "page must be at least 1" })
    // Far past any real list, and (page - 1) × pageSize stays well inside PostgreSQL's integers. Checked before
    // `int`, which refuses numbers past 2^53 as not whole: "at most" is the helpful answer to those.
    .max(1_000_000, { error: "page must be at most 1000000" })
    .int({ error: "page must be a whole number" })
    .optional(),
  pageSize: z.coerce
    .number({ error: "pageSize must be a number" })
    .min(1, { error: "pageSize must be at least 1" })
    .max(200, { error: "pageSize must be at most 200" })
    .int({ error: "pageSize must be a whole number" })
    .optional(),
});
