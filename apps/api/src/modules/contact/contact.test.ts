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
    expect(list[0]).toMatchObject(enquiry);
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

  it.each([
    [{ name: "" }, "name", "Name is required"],
    [{ email: "nope" }, "email", "Email must be a valid e-mail address"],
    [{ subject: "" }, "subject", "Subject is required"],
    [{ phone: "" }, "phone", "Phone Number is required"],
    [{ phone: "call me" }, "phone", "Phone Number must contain only digits, spaces, +, - or brackets"],
  ])("refuses %o", async (change, field, message) => {
    const response = await app.inject({
      method: "POST",
      url: "/api/contact",
      payload: { ...enquiry, ...change },
      remoteAddress: "10.9.0.3",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields[field]).toBe(message);
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
