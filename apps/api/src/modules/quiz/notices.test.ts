// What invigilators tell candidates' screens (decision 038): a message to every candidate of a drive, and time added,
// pushed down each candidate's stream through whichever instance holds it; who may send, who hears, and what a
// screen that connects later is sent.
import { MESSAGES_REPLAYED, type Notice } from "@trainwise/contract/notices";
import type { FastifyInstance } from "fastify";
import { describe, expect, it } from "vitest";
import { drain } from "../../drain.ts";
import { createSecondInstance, createTestApp } from "../../test/app.ts";
import { openEventStream } from "../../test/event-stream.ts";
import { addRightWrongQuestion, adminToken, bearer, startedStudent } from "../../test/fixtures.ts";
import { NOTICE_STREAM } from "./notice-stream.ts";

describe("notices to candidates' screens", async () => {
  const first = await createTestApp();
  const { app, database } = first;
  const owner = bearer(await adminToken(app, database.db));
  const viewer = bearer(await adminToken(app, database.db, "notices-viewer", "viewer"));
  for (let index = 1; index <= 2; index++) await addRightWrongQuestion(app, owner, "Notices", `Notices ${index}`);
  const test = await app.inject({
    method: "POST",
    url: "/api/tests",
    headers: owner,
    payload: {
      name: "Notices",
      categories: ["Notices"],
      questionCount: 2,
      timingMode: "whole_quiz",
      secondsPerQuestion: 60,
    },
  });
  expect(test.statusCode, test.body).toBe(201);
  async function newDrive(name: string) {
    const drive = await app.inject({
      method: "POST",
      url: "/api/drives",
      headers: owner,
      payload: { name, testId: test.json()._id },
    });
    expect(drive.statusCode, drive.body).toBe(201);
    return drive.json() as { _id: string; code: string };
  }
  // The candidates' streams are held by a second instance: what the first stores reaches them through the database.
  const second = await createSecondInstance(first);
  await second.app.listen({ host: "127.0.0.1", port: 0 });

  const started = (driveCode: string) => startedStudent(app, database.pool, driveCode);
  const notices = (instance: FastifyInstance, token: string) => openEventStream(instance, "/api/quiz/notices", token);
  const send = (driveId: string, text: unknown, headers = owner) =>
    app.inject({ method: "POST", url: `/api/drives/${driveId}/messages`, headers, payload: { text } });
  const isMessage = (text: string) => (event: { event: string; data: unknown }) =>
    event.event === "notice" && (event.data as Notice).kind === "message" && (event.data as Notice).text === text;

  it("pushes a message sent through one instance to every candidate of the drive on another, and to nobody else", async () => {
    const drive = await newDrive("Notices reach the room");
    const other = await newDrive("Notices stay in their drive");
    const [asha, bala, elsewhere] = await Promise.all([started(drive.code), started(drive.code), started(other.code)]);
    const streams = [await notices(second.app, asha.token), await notices(second.app, bala.token)];
    const stranger = await notices(second.app, elsewhere.token);
    expect(streams[0]?.response.headers.get("content-type")).toContain("text/event-stream");
    expect(streams[0]?.response.headers.get("x-accel-buffering")).toBe("no");

    const sent = await send(drive._id, "  Calculators away, please.  ");
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().message).toContain("“Calculators away, please.”");
    for (const stream of streams) {
      const event = await stream.next(isMessage("Calculators away, please."));
      expect(event.data).toMatchObject({ kind: "message", text: "Calculators away, please." });
    }
    // The other drive's candidate hears nothing of it, even after a message of their own drive.
    expect((await send(other._id, "Your own room's message")).statusCode).toBe(201);
    await stranger.next(isMessage("Your own room's message"));
    expect(stranger.events.some(isMessage("Calculators away, please."))).toBe(false);

    // Audited with its words.
    const { rows } = await database.pool.query<{ after: { message: string } }>(
      "select after from audit_log where action = 'message.send' and entity_id = $1",
      [drive._id],
    );
    expect(rows[0]?.after.message).toContain("Calculators away, please.");
    for (const stream of [...streams, stranger]) stream.close();
  });

  it("sends a screen that connects later the drive's latest messages, each once", async () => {
    const drive = await newDrive("Notices for latecomers");
    for (let index = 1; index <= MESSAGES_REPLAYED + 2; index++) {
      expect((await send(drive._id, `Announcement ${index}`)).statusCode).toBe(201);
    }
    const late = await started(drive.code);
    const stream = await notices(second.app, late.token);
    await stream.next(isMessage(`Announcement ${MESSAGES_REPLAYED + 2}`));
    // Give the instance's first read of the drive (which pushes its last seconds too) time to come and go.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const texts = stream.events.map((event) => (event.data as Notice).text);
    expect(texts).toEqual(Array.from({ length: MESSAGES_REPLAYED }, (_, index) => `Announcement ${index + 3}`));
    stream.close();
  });

  it("tells only the screen whose attempt got time, or every screen when the whole drive did", async () => {
    const drive = await newDrive("Notices of time added");
    const [chitra, dev] = await Promise.all([started(drive.code), started(drive.code)]);
    const [toChitra, toDev] = [await notices(second.app, chitra.token), await notices(second.app, dev.token)];
    const isTimeAdded = (event: { event: string; data: unknown }) => (event.data as Notice).kind === "time-added";
    const one = await app.inject({
      method: "POST",
      url: `/api/students/${chitra.studentId}/add-time`,
      headers: owner,
      payload: { minutes: 2 },
    });
    expect(one.statusCode, one.body).toBe(200);
    const heard = await toChitra.next(isTimeAdded);
    expect(heard.data).toMatchObject({ kind: "time-added", text: null });
    const all = await app.inject({
      method: "POST",
      url: `/api/drives/${drive._id}/add-time`,
      headers: owner,
      payload: { minutes: 1 },
    });
    expect(all.statusCode, all.body).toBe(200);
    await toDev.next(isTimeAdded);
    await toChitra.next((event) => isTimeAdded(event) && (event.data as Notice)._id !== (heard.data as Notice)._id);
    // Dev heard only the drive's add, not Chitra's own.
    expect(toDev.events.filter(isTimeAdded)).toHaveLength(1);
    for (const stream of [toChitra, toDev]) stream.close();
  });

  it("lets examiners send, not viewers, and refuses an empty or overlong message and an unknown drive", async () => {
    const drive = await newDrive("Notices refused");
    const byViewer = await send(drive._id, "Viewers only watch", viewer);
    expect(byViewer.statusCode).toBe(403);
    for (const [text, reason] of [
      ["   ", "Message is required"],
      [null, "Message is required"],
      ["x".repeat(301), "Message must be at most 300 characters"],
      ["Look\u202Ehere", "Message must not contain invisible characters"],
      ["Two\nlines", "Message must not contain control characters"],
    ] as const) {
      const refused = await send(drive._id, text);
      expect(refused.statusCode, String(text)).toBe(400);
      expect(refused.json().message).toContain(reason);
    }
    const unknown = await send("00000000-0000-4000-8000-000000000000", "Nobody there");
    expect(unknown.statusCode).toBe(404);
    const { rows } = await database.pool.query("select 1 from drive_notices where drive_id = $1", [drive._id]);
    expect(rows).toHaveLength(0);
  });

  it("serves a stream only to a signed-in candidate, and a few per candidate", async () => {
    const drive = await newDrive("Notices streams");
    expect((await app.inject({ method: "GET", url: "/api/quiz/notices" })).statusCode).toBe(401);
    expect((await app.inject({ method: "GET", url: "/api/quiz/notices", headers: owner })).statusCode).toBe(403);
    const farah = await started(drive.code);
    expect((await send(drive._id, "Welcome")).statusCode).toBe(201);
    const opened = async () => {
      const stream = await notices(second.app, farah.token);
      if (stream.response.ok) await stream.next(isMessage("Welcome"));
      return stream;
    };
    const open = [];
    for (let index = 0; index < NOTICE_STREAM.perStudent; index++) open.push(await opened());
    const refused = await second.app.inject({ method: "GET", url: "/api/quiz/notices", headers: bearer(farah.token) });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(
      "Your quiz is open in 3 places already. Close it in another tab or window to follow it here.",
    );
    for (const stream of open) stream.close();
  });

  it("ends its streams when the instance drains, so the drain does not wait for them", async () => {
    const draining = await createSecondInstance(first);
    await draining.app.listen({ host: "127.0.0.1", port: 0 });
    const drive = await newDrive("Notices while draining");
    const gita = await started(drive.code);
    const stream = await notices(draining.app, gita.token);
    expect((await send(drive._id, "Five minutes left")).statusCode).toBe(201);
    await stream.next(isMessage("Five minutes left"));
    // A deadline far beyond the test's timeout: only streams that really end let the drain finish.
    await drain(draining.app, { quietMs: 200, longestMs: 120_000 });
    await stream.reading;
    expect(stream.ended).toBe(true);
    expect(draining.app.candidateNotices.watchedDrives).toBe(0);
  });
});
