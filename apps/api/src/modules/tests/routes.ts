// /api/tests (admin): tests are the recipes attempts are made from.
import type { Test } from "@trainwise/contract/drives";
import type { FastifyPluginAsync } from "fastify";
import type { Executor } from "../../db/client.ts";
import { HttpError } from "../../http/http-error.ts";
import { serve } from "../../http/serve-endpoint.ts";
import {
  archiveTest,
  drivesKeepingKeys,
  findTest,
  insertTest,
  listTests,
  testChoices,
  testTable,
  updateTest,
} from "./repository.ts";

function testOut({ test, available, sectionsAvailable }: NonNullable<Awaited<ReturnType<typeof findTest>>>): Test {
  const { id, createdAt, archivedAt, updatedAt: _updatedAt, ...rest } = test;
  // In sections, what each section can draw of what it asks for (overlaps between sections counted in each).
  const drawable =
    test.sections.length === 0
      ? available
      : test.sections.reduce(
          (sum, section, index) => sum + Math.min(section.questionCount, sectionsAvailable[index] ?? 0),
          0,
        );
  return {
    _id: id,
    ...rest,
    archived: archivedAt !== null,
    available: drawable,
    sectionsAvailable,
    createdAt: createdAt.toISOString(),
  };
}

async function testOrNotFound(db: Executor, id: string) {
  const found = await findTest(db, id);
  if (!found) throw new HttpError(404, "Test not found.");
  return found;
}

const testRoutes: FastifyPluginAsync = async (app) => {
  serve(app, "tests", async (request, reply) => {
    const { archived, ...paging } = request.query;
    const { rows, total } = await listTests(app.db, { ...paging, includeArchived: archived === "true" });
    reply.header("x-total-count", String(total));
    return rows.map(testOut);
  });

  serve(app, "testTable", async (request) => {
    const page = await testTable(app.db, request.query);
    return { ...page, rows: page.rows.map(testOut) };
  });

  serve(app, "testChoices", async () =>
    (await testChoices(app.db)).map(({ id, name, questionCount, sections }) => ({
      _id: id,
      name,
      questionCount,
      sectionNames: sections.map((section) => section.name),
    })),
  );

  serve(app, "createTest", async (request) => {
    const id = await insertTest(app.db, request.body);
    return testOut(await testOrNotFound(app.db, id));
  });

  serve(app, "test", async (request) => testOut(await testOrNotFound(app.db, request.params.id)));

  serve(app, "updateTest", async (request) => {
    if (!request.body.secure) {
      // Practice shows scores at submit: the next candidates of a drive still running secure would learn the key.
      const keeping = await drivesKeepingKeys(app.db, request.params.id);
      if (keeping.length > 0) {
        throw new HttpError(
          409,
          `This test cannot become practice yet: ${keeping.join(", ")} still keeps its answers secret until its results come out. ` +
            "Scores at submit would give those answers away. Change it once the drive has ended and released its results.",
        );
      }
    }
    const updated = await updateTest(app.db, request.params.id, request.body);
    if (!updated) throw new HttpError(404, "Test not found.");
    return testOut(await testOrNotFound(app.db, updated.id));
  });

  serve(app, "archiveTest", async (request) => {
    const archived = await archiveTest(app.db, request.params.id);
    if (!archived) {
      await testOrNotFound(app.db, request.params.id);
      throw new HttpError(409, "The default test cannot be archived.");
    }
    return { message: "The test has been archived." };
  });
};

export default testRoutes;
