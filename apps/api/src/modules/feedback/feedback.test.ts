import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/app.ts";
import { adminToken, bearer } from "../../test/fixtures.ts";

const entry = {
  name: "Priya S.",
  usnNumber: "1TW22CS050",
  emailId: "priya@example.com",
  section: "B",
  batch: "2026",
  feedback: "The interview practice was the most useful part of the programme.",
};

describe("/api/feedback", async () => {
  const { app, database } = await createTestApp();
  const token = await adminToken(app, database.db);

  it("starts empty", async () => {
    const response = await app.inject({ method: "GET", url: "/api/feedback" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });

  it("lets an admin add feedback that the public list shows without contact data", async () => {
    const created = await app.inject({ method: "POST", url: "/api/feedback", headers: bearer(token), payload: entry });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ message: "Feedback submitted successfully.", feedback: entry });
    const list = (await app.inject({ method: "GET", url: "/api/feedback" })).json();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ name: entry.name, section: "B", batch: "2026", feedback: entry.feedback });
    expect(list[0].timestamp).toMatch(/^\d{4}-\d\d-\d\dT/);
    const publicBody = JSON.stringify(list);
    expect(publicBody).not.toContain(entry.emailId);
    expect(publicBody).not.toContain(entry.usnNumber);
  });

  it.each([
    [{ name: "" }, "name", "Name is required"],
    [{ usnNumber: "" }, "usnNumber", "USN Number is required"],
    [{ emailId: "" }, "emailId", "Email ID is required"],
    [{ emailId: "not-an-email" }, "emailId", "Email ID must be a valid e-mail address"],
    [{ section: "" }, "section", "Section is required"],
    [{ batch: "" }, "batch", "Batch is required"],
    [{ feedback: "" }, "feedback", "Feedback is required"],
  ])("refuses %o and stores nothing", async (change, field, message) => {
    const before = (await database.pool.query("select count(*)::int as n from feedback")).rows[0].n;
    const response = await app.inject({
      method: "POST",
      url: "/api/feedback",
      headers: bearer(token),
      payload: { ...entry, ...change },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: message, fields: { [field]: message } });
    expect((await database.pool.query("select count(*)::int as n from feedback")).rows[0].n).toBe(before);
  });

  it("lets an admin hide feedback from the home page, show it again, and delete it", async () => {
    const created = (
      await app.inject({ method: "POST", url: "/api/feedback", headers: bearer(token), payload: entry })
    ).json().feedback;
    const hide = await app.inject({
      method: "PATCH",
      url: `/api/feedback/${created._id}`,
      headers: bearer(token),
      payload: { hidden: true },
    });
    expect(hide.json()).toMatchObject({ _id: created._id, hidden: true });
    const shown = (await app.inject({ method: "GET", url: "/api/feedback" })).json();
    expect(shown.some((row: { _id: string }) => row._id === created._id)).toBe(false);
    const all = (await app.inject({ method: "GET", url: "/api/feedback/all", headers: bearer(token) })).json();
    expect(all.find((row: { _id: string }) => row._id === created._id)).toMatchObject({
      hidden: true,
      emailId: entry.emailId,
    });
    await app.inject({
      method: "PATCH",
      url: `/api/feedback/${created._id}`,
      headers: bearer(token),
      payload: { hidden: false },
    });
    expect(
      (await app.inject({ method: "GET", url: "/api/feedback" }))
        .json()
        .some((row: { _id: string }) => row._id === created._id),
    ).toBe(true);
    const removed = await app.inject({ method: "DELETE", url: `/api/feedback/${created._id}`, headers: bearer(token) });
    expect(removed.json()).toEqual({ message: "Feedback deleted." });
    const again = await app.inject({ method: "DELETE", url: `/api/feedback/${created._id}`, headers: bearer(token) });
    expect(again.statusCode).toBe(404);
  });
});
