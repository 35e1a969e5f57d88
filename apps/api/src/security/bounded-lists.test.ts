// No list is unbounded: every list an endpoint answers declares its most rows in the contract (`listOf`, a table's
// page), and the older lists answer their first LIST_CAP rows unless paged, whatever the table holds.
import { LIST_CAP } from "@trainwise/contract/common";
import { endpoints } from "@trainwise/contract/endpoints";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../test/app.ts";
import { adminToken, bearer } from "../test/fixtures.ts";
import { watchedLog } from "../test/log-watch.ts";

interface Def {
  type: string;
  shape?: Record<string, unknown>;
  innerType?: unknown;
  in?: unknown;
  checks?: { _zod: { def: { check: string; maximum?: number } } }[];
}

const defOf = (schema: unknown) => (schema as { _zod?: { def?: Def } } | undefined)?._zod?.def;

/** The schema under optional, nullable, default and pipe wrappers. */
function unwrapped(schema: unknown): Def | undefined {
  const def = defOf(schema);
  if (!def) return undefined;
  if (["optional", "nullable", "default", "readonly"].includes(def.type)) return unwrapped(def.innerType);
  if (def.type === "pipe") return unwrapped(def.in);
  return def;
}

function mostRows(def: Def): number | undefined {
  return def.checks?.find((check) => check._zod.def.check === "max_length")?._zod.def.maximum;
}

describe("lists", async () => {
  it("declare their most rows in the contract: every listed answer is bounded", () => {
    const unbounded: string[] = [];
    for (const [name, endpoint] of Object.entries(endpoints)) {
      if (typeof endpoint.response === "string") continue;
      const answer = unwrapped(endpoint.response);
      const list =
        answer?.type === "array" ? answer : answer?.type === "object" ? unwrapped(answer.shape?.rows) : undefined;
      if (list?.type !== "array") continue;
      const most = mostRows(list);
      if (most === undefined || most > LIST_CAP) unbounded.push(name);
    }
    expect(unbounded, "endpoints answering a list without a bound").toEqual([]);
  });

  const { app, database } = await createTestApp({ logStream: watchedLog() });
  const admin = bearer(await adminToken(app, database.db));
  // More rows than any list answers at once, written straight into the tables.
  const rows = LIST_CAP + 7;
  await database.pool.query(
    `insert into feedback (name, usn_number, email_id, section, batch, feedback)
     select 'Reader ' || n, 'USN' || n, 'reader' || n || '@example.com', 'A', '2025', 'Fine' from generate_series(1, $1) n`,
    [rows],
  );
  await database.pool.query(
    `insert into contact_enquiries (name, email, phone, subject, message)
     select 'Visitor ' || n, 'visitor' || n || '@example.com', '9876543210', 'Hello', 'Call me' from generate_series(1, $1) n`,
    [rows],
  );
  await database.pool.query(
    `insert into questions (text, category, difficulty) select 'Question ' || n, 'Bulk', 'easy' from generate_series(1, $1) n`,
    [rows],
  );

  it.each([["/api/feedback/all"], ["/api/contact"], ["/api/questions"]])(
    "%s answers its first rows unless paged, with the total beside them",
    async (url) => {
      const first = await app.inject({ method: "GET", url, headers: admin });
      expect(first.statusCode).toBe(200);
      expect(first.json()).toHaveLength(LIST_CAP);
      expect(Number(first.headers["x-total-count"])).toBeGreaterThanOrEqual(rows);
      const last = await app.inject({ method: "GET", url: `${url}?page=21&pageSize=50`, headers: admin });
      expect(last.statusCode).toBe(200);
      expect(last.json().length).toBeGreaterThanOrEqual(7);
      expect(last.json().length).toBeLessThanOrEqual(50);
    },
  );
});
