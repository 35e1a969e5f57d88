import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/app.ts";
import { adminToken, bearer } from "../../test/fixtures.ts";
import { startSmtpSink } from "../../test/smtp-sink.ts";

const enquiry = {
  name: "Ravi Kumar",
  email: "ravi@college.example",
  subject: "Placement training for 120 students",
  phone: "+91 98450 00000",
  message: "We would like a four-week programme before our campus drive.",
};

describe("/api/contact", async () => {
  const { app, database } = await createTestApp();

  it("stores an enquiry that admins can read", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/api/contact",
      payload: enquiry,
      remoteAddress: "10.9.0.1",
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().message).toBe("Thank you. We have received your message and will reply soon.");
    const token = await adminToken(app, database.db);
    const list = (await app.inject({ method: "GET", url: "/api/contact", headers: bearer(token) })).json();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ ...enquiry, programme: null });
  });

  it("records the programme an enquiry from a programme's page names, in the list, the table and the export", async () => {
    const fromProgramme = { ...enquiry, subject: "Corporate Training enquiry", phone: "9845012345" };
    const response = await app.inject({
      method: "POST",
      url: "/api/contact",
      payload: { ...fromProgramme, programme: "Corporate Training" },
      remoteAddress: "10.9.0.4",
    });
    expect(response.statusCode).toBe(201);
    const token = await adminToken(app, database.db);
    const list = (await app.inject({ method: "GET", url: "/api/contact", headers: bearer(token) })).json();
    expect(list.find((row: { subject: string }) => row.subject === fromProgramme.subject)).toMatchObject({
      programme: "Corporate Training",
    });
    const table = (
      await app.inject({ method: "GET", url: "/api/contact/table?search=corporate%20training", headers: bearer(token) })
    ).json();
    expect(table.rows).toHaveLength(1);
    expect(table.rows[0]).toMatchObject({ programme: "Corporate Training", phone: "9845012345" });
  });

  it("keeps the message optional", async () => {
    const { message: _message, ...withoutMessage } = enquiry;
    const response = await app.inject({
      method: "POST",
      url: "/api/contact",
      payload: withoutMessage,
      remoteAddress: "10.9.0.2",
    });
    expect(response.statusCode).toBe(201);
  });

  const refusals: [Partial<Record<keyof typeof enquiry | "programme", string>>, string, string][] = [
    [{ name: "" }, "name", "Name is required"],
    [{ email: "nope" }, "email", "Email must be a valid e-mail address"],
    [{ subject: "" }, "subject", "Subject is required"],
    [{ phone: "" }, "phone", "Phone Number is required"],
    [{ phone: "call me" }, "phone", "Phone Number may contain only digits, spaces, +, - or brackets"],
    // Digits alone, but too few: the message names the length rule, not the characters.
    [{ phone: "98450" }, "phone", "Phone Number must have 10 to 15 digits (e.g. 98450 12345 or +91 98450 12345)"],
    [
      { phone: "+91 98450 12345 6789" },
      "phone",
      "Phone Number must have 10 to 15 digits (e.g. 98450 12345 or +91 98450 12345)",
    ],
    [
      { programme: "Underwater Basket Weaving" },
      "programme",
      "Programme must be one of: Institutional Training, Corporate Training, Skill Development, Employment Readiness",
    ],
  ];
  it.each(refusals.map(([change, field, message], index) => [change, field, message, `10.9.3.${index}`] as const))(
    "refuses %o",
    async (change, field, message, address) => {
      const response = await app.inject({
        method: "POST",
        url: "/api/contact",
        payload: { ...enquiry, ...change },
        // Each case from its own address: refusals count towards the limit of five enquiries per address.
        remoteAddress: address,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields[field]).toBe(message);
    },
  );

  it("lists an enquiry kept from before a rule was tightened, in the list, the table and the export", async () => {
    // Stored when the phone's digit count was not yet checked, with an address today's form would refuse.
    await database.db.execute(sql`
      insert into contact_enquiries (name, email, subject, phone, message)
      values ('Old Visitor', 'old visitor at college', 'Enquiry from before the rules', '98450', '')`);
    const token = await adminToken(app, database.db);
    const list = await app.inject({ method: "GET", url: "/api/contact", headers: bearer(token) });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toContainEqual(expect.objectContaining({ phone: "98450", email: "old visitor at college" }));
    const table = await app.inject({
      method: "GET",
      url: "/api/contact/table?search=old%20visitor",
      headers: bearer(token),
    });
    expect(table.statusCode, table.body).toBe(200);
    expect(table.json().rows).toEqual([expect.objectContaining({ phone: "98450" })]);
    const csv = await app.inject({ method: "GET", url: "/api/contact/export.csv", headers: bearer(token) });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain("old visitor at college");
  });

  it("limits enquiries per address", async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 6; index++) {
      statuses.push(
        (await app.inject({ method: "POST", url: "/api/contact", payload: enquiry, remoteAddress: "10.9.9.9" }))
          .statusCode,
      );
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  });
});

describe("e-mailing enquiries when SMTP_URL is set", async () => {
  const sink = await startSmtpSink();
  const { received } = sink;
  const { app } = await createTestApp({ smtpUrl: sink.url });

  it("sends the enquiry to the info address", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/api/contact",
      payload: enquiry,
      remoteAddress: "10.9.1.1",
    });
    expect(response.statusCode).toBe(201);
    await expect.poll(() => received.length, { timeout: 5000 }).toBe(1);
    const message = received[0] ?? "";
    expect(message).toContain("To: info@trainwise.example");
    expect(message).toContain("Subject: Website enquiry: Placement training for 120 students");
    expect(message).toContain("Reply-To: Ravi Kumar <ravi@college.example>");
    expect(message).toContain("We would like a four-week programme before our campus drive.");
    await sink.close();
  });

  it("still stores the enquiry when the mail server is down", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/api/contact",
      payload: enquiry,
      remoteAddress: "10.9.1.2",
    });
    expect(response.statusCode).toBe(201);
  });
});
