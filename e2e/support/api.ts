// Direct API calls for journey set-up, through the product's own HTTP API.
export const baseUrl = () => process.env.E2E_BASE_URL ?? "";

/** One JSON call to the API (POST when it has a body), failing the journey on any error status. */
export async function apiCall<T>(
  path: string,
  init: { method?: string; body?: unknown; token?: string } = {},
): Promise<T> {
  const response = await fetch(`${baseUrl()}/api${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: {
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export async function adminLogin(): Promise<string> {
  const response = await fetch(`${baseUrl()}/api/auth/admin/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: process.env.E2E_ADMIN_USERNAME, password: process.env.E2E_ADMIN_PASSWORD }),
  });
  if (!response.ok) throw new Error(`admin login failed: ${response.status}`);
  return ((await response.json()) as { token: string }).token;
}

let shared: Promise<string> | undefined;

/**
 * This worker's admin session, logged in once: a journey that only sets things up uses this session, so the run's
 * logins are few; one that ends its session, or tests what one session may do, logs in with `adminLogin` for a
 * session of its own.
 */
export function sharedAdminToken(): Promise<string> {
  shared ??= adminLogin().catch((error: unknown) => {
    shared = undefined;
    throw error;
  });
  return shared;
}

let sequence = 0;
export function uniqueStudent() {
  sequence++;
  const stamp = `${Date.now()}${sequence}${Math.floor(Math.random() * 1000)}`;
  return {
    name: `Journey Student ${sequence}`,
    email: `journey${stamp}@example.com`,
    phone: "9876543210",
    usnNo: `USN${stamp}`,
    college: "Lakeview Institute of Technology",
    course: "B.E.",
    group: "CSE",
    year: "2025",
  };
}

/** A student who registered and submitted an empty quiz, through the API. */
export async function submittedStudent(): Promise<void> {
  const student = uniqueStudent();
  const post = (path: string, body: unknown, token?: string) =>
    fetch(`${baseUrl()}/api${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  const { token } = (await (await post("/auth/student/register", student)).json()) as { token: string };
  await fetch(`${baseUrl()}/api/quiz/questions?limit=25`, { headers: { authorization: `Bearer ${token}` } });
  await post("/quiz/submit", { answers: [] }, token);
}

/** Registers students until one is served the question with this text (the quiz picks 25 at random). */
export async function studentServed(
  text: string,
): Promise<{ token: string; questions: { _id: string; text: string; html: string }[] }> {
  for (let tries = 0; tries < 40; tries++) {
    const response = await fetch(`${baseUrl()}/api/auth/student/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(uniqueStudent()),
    });
    const { token } = (await response.json()) as { token: string };
    const questions = (await (
      await fetch(`${baseUrl()}/api/quiz/questions?limit=25`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { _id: string; text: string; html: string }[];
    if (questions.some((question) => question.text === text)) return { token, questions };
  }
  throw new Error(`no student was served "${text}" in 40 tries`);
}
