// Every call of the API in one table: method, path, who may call it (and, for an admin change, the audit action it
// is recorded under), its query, body and answer. The API registers its routes from this table and derives its
// access rule book from it; the web app makes every call through it; a test fails when a served route is missing
// here or an entry here is not served. An endpoint is declared here (in the parts under endpoints/, by audience)
// and nowhere else.
import { z } from "zod";
import { idParamsSchema, idSchema, optionalText } from "./common.ts";
import { accountEndpoints } from "./endpoints/accounts.ts";
import { admin, type Endpoint, endpoint } from "./endpoints/definition.ts";
import { driveAdminEndpoints } from "./endpoints/drives.ts";
import { feedbackAndEnquiryEndpoints } from "./endpoints/feedback.ts";
import { publicEndpoints } from "./endpoints/public.ts";
import { questionEndpoints } from "./endpoints/questions.ts";
import { resultEndpoints } from "./endpoints/results.ts";
import { studentEndpoints } from "./endpoints/student.ts";
import { studentAdminEndpoints } from "./endpoints/students.ts";

const endpointsWithoutTickets = {
  ...publicEndpoints,
  ...studentEndpoints,
  ...accountEndpoints,
  ...resultEndpoints,
  ...questionEndpoints,
  ...studentAdminEndpoints,
  ...driveAdminEndpoints,
  ...feedbackAndEnquiryEndpoints,
};

type EndpointsWithoutTickets = typeof endpointsWithoutTickets;
/** The names of the endpoints an admin downloads as a file. */
export type DownloadName = {
  [Name in keyof EndpointsWithoutTickets]: EndpointsWithoutTickets[Name]["response"] extends "file"
    ? EndpointsWithoutTickets[Name]["access"]["who"] extends "admin"
      ? Name
      : never
    : never;
}[keyof EndpointsWithoutTickets];

/** Every file download, each of which a download ticket may name (decision 022). */
export const DOWNLOAD_NAMES = [
  "studentExport",
  "resultExport",
  "questionExport",
  "questionExportAs",
  "questionTemplate",
  "feedbackExport",
  "enquiryExport",
  "driveResultsExport",
  "driveShortlistExport",
  "driveAnalysisExport",
  "testAnalysisExport",
] as const satisfies readonly DownloadName[];

/**
 * A ticket for one download: the export, the id its path names, and its query string. The browser goes to the
 * address it answers, which works once, within a minute, for the admin who asked (decision 022).
 */
export const downloadTicketInputSchema = z.object({
  export: z.enum(DOWNLOAD_NAMES, { error: "export must name one of the downloads" }),
  id: idSchema.optional(),
  query: optionalText("query", 2000).optional(),
});
export type DownloadTicketInput = z.input<typeof downloadTicketInputSchema>;
export const downloadTicketSchema = z.object({ url: z.string(), expiresAt: z.iso.datetime() });

export const endpoints = {
  ...endpointsWithoutTickets,
  downloadTicket: endpoint({
    method: "POST",
    path: "/downloads",
    // Asking for a ticket needs the role the download itself needs, checked by the route (decision 022).
    access: admin("viewer"),
    summary: "A ticket for one download: an address that fetches it once, within a minute, without the token",
    description:
      "Name the download as the admin client does (`studentExport`, `driveResultsExport`, …) with its `id` and query " +
      "string. Asking needs the role the download itself needs.",
    body: downloadTicketInputSchema,
    response: downloadTicketSchema,
  }),
} satisfies Record<string, Endpoint>;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;

/** The names of a path's parameters: `/admins/invites/:token` → "token". */
export type PathParamName<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamName<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

/** The schema of an endpoint's path parameters: its own, or a uuid `id` for a path that names `:id`. */
export function paramsSchemaOf(definition: Endpoint): z.ZodObject | undefined {
  if (definition.params) return definition.params;
  return definition.path.includes(":") ? idParamsSchema : undefined;
}

/** The path parameters a call fills in (as the caller writes them). */
export type ParamsOf<Name extends EndpointName> = Endpoints[Name] extends { params: infer P extends z.ZodType }
  ? z.input<P>
  : [PathParamName<Endpoints[Name]["path"]>] extends [never]
    ? never
    : Record<PathParamName<Endpoints[Name]["path"]>, string>;
/** What a call sends in its query string (as the screen writes it, before defaults). */
export type QueryOf<Name extends EndpointName> = Endpoints[Name] extends { query: infer Q extends z.ZodType }
  ? z.input<Q>
  : never;
/** The body a call sends: JSON, or the uploaded text for an endpoint that `consumes` a file. */
export type BodyOf<Name extends EndpointName> = Endpoints[Name] extends { body: infer B extends z.ZodType }
  ? z.input<B>
  : never;
/** What a call answers. */
export type ResponseOf<Name extends EndpointName> = Endpoints[Name] extends { response: infer R extends z.ZodType }
  ? z.output<R>
  : never;

/** The endpoints only an admin may call, with their rule. */
export type AdminEndpointName = {
  [Name in EndpointName]: Endpoints[Name]["access"]["who"] extends "admin" ? Name : never;
}[EndpointName];

/** The address of a call: its path under /api with the parameters filled in. */
export function pathOf(definition: Endpoint, params: Record<string, string> = {}): string {
  return definition.path.replace(/:([A-Za-z]+)/g, (_match, name: string) => encodeURIComponent(params[name] ?? ""));
}
