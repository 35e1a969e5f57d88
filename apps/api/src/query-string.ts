// How every route reads its query string: fast-querystring, the parser Fastify's router uses by default, named
// here and set in app.ts so that whatever reads a query ahead of its route (the download tickets' check of the
// query an export will get, modules/downloads) reads it exactly as the route will: a name given twice is a list.
import { parse } from "fast-querystring";

export function parseQueryString(query: string): Record<string, unknown> {
  return query.length === 0 ? {} : parse(query);
}
