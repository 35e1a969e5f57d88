// A drive paused through one instance and resumed through another, with its candidate on a third (decision 039),
// for the cluster round: separate processes on one database, each instance's session cache told of the pause by
// PostgreSQL's announcements. What a candidate sends meanwhile through the third is refused with 423; once resumed,
// an answer is taken there again and the attempt has the time it had at the pause.

interface Reply {
  status: number;
  body: Record<string, unknown>;
}

async function send(base: string, method: string, path: string, token?: string, body?: unknown): Promise<Reply> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

function expectStatus(reply: Reply, status: number, what: string): Reply {
  if (reply.status !== status) throw new Error(`${what}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply;
}

/** Sends `request` until it answers `status`, for up to 5 s; answers how long that took. */
async function untilStatus(status: number, request: () => Promise<Reply>, what: string): Promise<number> {
  const started = Date.now();
  for (;;) {
    const reply = await request();
    if (reply.status === status) return Date.now() - started;
    if (Date.now() - started > 5_000) throw new Error(`${what}: still ${reply.status} after 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface PauseReport {
  /** How long after the pause's answer the third instance refused an answer, and took one after the resume. */
  refusedAfterMs: number;
  takenAfterMs: number;
  secondsLeftBefore: number;
  secondsLeftAfter: number;
  pausedMs: number;
}

/** Pauses through `pausing`, sits the quiz on `sitting`, resumes through `resuming`; throws what went wrong. */
export async function pauseAcrossInstances(
  [pausing, sitting, resuming]: [string, string, string],
  admin: { username: string; password: string },
): Promise<PauseReport> {
  const login = expectStatus(await send(pausing, "POST", "/api/auth/admin/login", undefined, admin), 200, "login");
  const adminToken = String(login.body.token);
  const test = expectStatus(
    await send(pausing, "POST", "/api/tests", adminToken, {
      name: `Cluster pause ${Date.now()}`,
      questionCount: 3,
      timingMode: "whole_quiz",
      secondsPerQuestion: 60,
    }),
    201,
    "a test",
  );
  const drive = expectStatus(
    await send(pausing, "POST", "/api/drives", adminToken, {
      name: `Cluster pause ${Date.now()}`,
      testId: test.body._id,
    }),
    201,
    "a drive",
  );
  const unique = `pause-${Date.now()}`;
  const registered = expectStatus(
    await send(sitting, "POST", "/api/auth/student/register", undefined, {
      name: "Paused Candidate",
      email: `${unique}@example.com`,
      phone: "9876543210",
      usnNo: unique.toUpperCase(),
      college: "Cluster College",
      course: "B.E.",
      group: "CSE",
      year: "2025",
      driveCode: drive.body.code,
    }),
    200,
    "registration",
  );
  const studentToken = String(registered.body.token);
  const started = expectStatus(await send(sitting, "POST", "/api/quiz/start", studentToken), 200, "start");
  const [question] = started.body.questions as { _id: string; options: { _id: string }[] }[];
  if (!question) throw new Error("the start served no question");
  const answer = () =>
    send(sitting, "PUT", "/api/quiz/answers", studentToken, {
      questionId: question._id,
      optionId: question.options[0]?._id,
    });
  expectStatus(await answer(), 200, "an answer before the pause");
  const secondsLeftBefore = Number(started.body.secondsLeft);

  const pausedAt = Date.now();
  expectStatus(await send(pausing, "POST", `/api/drives/${drive.body._id}/pause`, adminToken), 200, "pause");
  const refusedAfterMs = await untilStatus(423, answer, "an answer on another instance during the pause");
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const resumeLogin = expectStatus(
    await send(resuming, "POST", "/api/auth/admin/login", undefined, admin),
    200,
    "login on the resuming instance",
  );
  expectStatus(
    await send(resuming, "POST", `/api/drives/${drive.body._id}/resume`, String(resumeLogin.body.token)),
    200,
    "resume",
  );
  const pausedMs = Date.now() - pausedAt;
  const takenAfterMs = await untilStatus(200, answer, "an answer on another instance after the resume");
  const attempt = expectStatus(await send(sitting, "GET", "/api/quiz/attempt", studentToken), 200, "the attempt");
  const secondsLeftAfter = Number(attempt.body.secondsLeft);
  // The pause took nothing: about the time left before it, less what passed outside it (a few seconds at most).
  if (secondsLeftAfter < secondsLeftBefore - 5 || secondsLeftAfter > secondsLeftBefore + 1) {
    throw new Error(
      `after a ${pausedMs} ms pause the attempt had ${secondsLeftAfter} s left, before it ${secondsLeftBefore} s`,
    );
  }
  return { refusedAfterMs, takenAfterMs, secondsLeftBefore, secondsLeftAfter, pausedMs };
}
