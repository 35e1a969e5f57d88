// What the route table's zod schemas declare: each field of a body and each query-string parameter, with the kind
// of value it takes. The security suites derive their inputs from it, so a new route or field is fuzzed and
// checked without anyone listing it.
import type { ApiRoute } from "../app.ts";

export type LeafKind = "string" | "number" | "boolean" | "other";

export interface SchemaLeaf {
  /** Where the value sits: `["options", "0", "text"]`; empty for a body that is a single value (a CSV file). */
  path: string[];
  kind: LeafKind;
  /** The zod schema of the value itself, to check it against. */
  schema: { safeParse(value: unknown): { success: boolean } };
}

interface Def {
  type: string;
  shape?: Record<string, unknown>;
  innerType?: unknown;
  in?: unknown;
  element?: unknown;
  options?: unknown[];
}

function defOf(schema: unknown): Def | undefined {
  return (schema as { _zod?: { def?: Def } } | undefined)?._zod?.def;
}

/** Every value a schema takes, down through objects, arrays, optional/default wrappers and pipes. */
export function leavesOf(schema: unknown, path: string[] = []): SchemaLeaf[] {
  const def = defOf(schema);
  if (!def) return [];
  switch (def.type) {
    case "object":
      return Object.entries(def.shape ?? {}).flatMap(([key, value]) => leavesOf(value, [...path, key]));
    case "array":
      return leavesOf(def.element, [...path, "0"]);
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "nonoptional":
    case "readonly":
    case "catch":
      return leavesOf(def.innerType, path);
    case "pipe":
      return leavesOf(def.in, path);
    case "union":
      return (def.options ?? []).flatMap((option) => leavesOf(option, path));
    default: {
      const kind: LeafKind =
        def.type === "string" || def.type === "number" || def.type === "boolean" ? def.type : "other";
      return [{ path, kind, schema: schema as SchemaLeaf["schema"] }];
    }
  }
}

export interface RouteInputs {
  body: SchemaLeaf[];
  query: SchemaLeaf[];
  params: SchemaLeaf[];
  /** The body is a CSV file rather than JSON. */
  csv: boolean;
}

export function inputsOf(route: ApiRoute): RouteInputs {
  const schema = route.schema ?? {};
  return {
    body: leavesOf(schema.body),
    query: leavesOf(schema.querystring),
    params: leavesOf(schema.params),
    csv: ((schema as { consumes?: string[] }).consumes ?? []).includes("text/csv"),
  };
}
