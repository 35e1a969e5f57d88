// Rich question text through the API: every payload that shows a question's or an option's text carries its
// rendered, sanitised `html` beside the Markdown, and the editor's preview renders by the same rules.
import type { Question, QuestionImportPreview } from "@trainwise/contract/questions";
import type { QuizQuestion, ReleasedResult } from "@trainwise/contract/quiz";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/app.ts";
import { withCpuMs } from "../../test/cpu-time.ts";
import { adminToken, bearer, registerStudent } from "../../test/fixtures.ts";
import { createAdmin } from "../admins/repository.ts";

const CODE_QUESTION = "What does this print?\n\n```java\nint x = 3;\nSystem.out.println(x << 1);\n```";
const MATH_QUESTION = "If $x^2 = 9$ and $x > 0$, what is $x$? (It costs $5 and $10.)";
const HOSTILE_QUESTION = "Pick one <script>alert(1)</script><img src=x onerror=alert(1)> [x](javascript:alert(1))";
const HOSTILE_HTML =
  "<p>Pick one &lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt; [x](javascript:alert(1))</p>";

describe("rich question text", async () => {
  const { app, database } = await createTestApp();
  const admin = bearer(await adminToken(app, database.db));
  const create = (payload: object) => app.inject({ method: "POST", url: "/api/questions", headers: admin, payload });
  const question = (text: string, options: string[]) => ({
    text,
    category: "Rich",
    difficulty: "easy",
    options: options.map((option, index) => ({ text: option, isCorrect: index === 0 })),
  });

  const created: Question[] = [];
  for (const payload of [
    question(CODE_QUESTION, ["`6`", "`3`"]),
    question(MATH_QUESTION, ["$3$", "**9**"]),
    question(HOSTILE_QUESTION, ["<svg onload=alert(1)>A</svg>B", "2 < 3"]),
  ]) {
    const response = await create(payload);
    expect(response.statusCode, response.body).toBe(201);
    created.push(response.json());
  }

  function expectRendered(text: string, html: string) {
    if (text === CODE_QUESTION) {
      expect(html).toContain('<pre><code class="hljs language-java"><span class="hljs-type">int</span>');
      expect(html).toContain("&lt;&lt;");
    } else if (text === MATH_QUESTION) {
      expect(html).toContain('<span class="math-inline" role="img" aria-label="x^2 = 9"><span class="katex">');
      expect(html).toContain("It costs $5 and $10.");
    } else if (text === HOSTILE_QUESTION) {
      // HTML typed in a text is shown as typed, never run.
      expect(html).toBe(HOSTILE_HTML);
    } else {
      throw new Error(`unexpected question ${text}`);
    }
  }
  const OPTION_HTML: Record<string, string> = {
    "`6`": "<code>6</code>",
    "`3`": "<code>3</code>",
    "**9**": "<strong>9</strong>",
    "<svg onload=alert(1)>A</svg>B": "&lt;svg onload=alert(1)&gt;A&lt;/svg&gt;B",
    "2 < 3": "2 &lt; 3",
  };
  function expectOptions(options: { text: string; html: string }[]) {
    for (const option of options) {
      if (option.text === "$3$") expect(option.html).toMatch(/^<span class="math-inline"/);
      else expect(option.html).toBe(OPTION_HTML[option.text]);
    }
  }

  it("answers a created question with its html and each option's", () => {
    for (const question of created) {
      expectRendered(question.text, question.html);
      expectOptions(question.options);
    }
  });

  it("lists the bank and its table with html", async () => {
    const listed = (await app.inject({ method: "GET", url: "/api/questions?category=Rich", headers: admin })).json();
    const table = (
      await app.inject({ method: "GET", url: "/api/questions/table?category=Rich&page=1", headers: admin })
    ).json();
    for (const question of [...(listed as Question[]), ...(table.rows as Question[])]) {
      expectRendered(question.text, question.html);
      expectOptions(question.options);
    }
    expect(listed).toHaveLength(3);
    expect(table.rows).toHaveLength(3);
  });

  it("previews an import with what each question will look like", async () => {
    const gift =
      "::Q1:: [markdown]Which is **bold**? {=`yes` ~no}\n\n::Q2:: [html]<p>Is &lt;h1&gt; <b>x</b>?</p><script>x</script> {T}";
    const response = await app.inject({
      method: "POST",
      url: "/api/questions/import/preview?format=gift&category=Rich",
      headers: { ...admin, "content-type": "text/plain" },
      payload: gift,
    });
    expect(response.statusCode, response.body).toBe(200);
    const preview = response.json() as QuestionImportPreview;
    expect(preview.questions.map((entry) => entry.html)).toEqual([
      "<p>Which is <strong>bold</strong>?</p>",
      "<p>Is &lt;h1&gt; <strong>x</strong>?</p>",
    ]);
    expect(preview.questions[0]?.options.map((option) => option.html)).toEqual(["<code>yes</code>", "no"]);
  });

  it("renders an import preview's first 10,000 characters of text only: a whole file of formulas took seconds", async () => {
    // 20 questions of 666 formulas, each with 10 options of 160: 1.9 s and 9.8 MB rendered whole (290 of them,
    // what 2 MB holds: 18 s and 142 MB).
    const header =
      "text,category,difficulty,correct,option1,option2,option3,option4,option5,option6,option7,option8,option9,option10";
    const rows = Array.from({ length: 20 }, (_, row) => {
      const options = Array.from({ length: 10 }, (_, option) => `${row}.${option} ${"$b$b".repeat(120)}`);
      return [`${row} ${"$a$a".repeat(495)}`, "Formulas", "easy", "1", ...options].join(",");
    });
    const { result: response, cpuMs } = await withCpuMs(() =>
      app.inject({
        method: "POST",
        url: "/api/questions/import/preview?format=csv",
        headers: { ...admin, "content-type": "text/csv" },
        payload: [header, ...rows].join("\n"),
      }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const preview = response.json() as QuestionImportPreview;
    expect(preview.questions).toHaveLength(20);
    // Each question is 6,800 characters of text: the first is rendered whole, the budget ends in the second.
    expect(preview.questions.map((question) => question.html !== undefined)).toEqual([true, ...Array(19).fill(false)]);
    expect(preview.questions[0]?.options.every((option) => option.html?.includes("math-inline"))).toBe(true);
    expect(preview.questions[1]?.options.some((option) => option.html !== undefined)).toBe(false);
    expect(preview.questions[19]?.text).toBe(`19 ${"$a$a".repeat(495)}`);
    expect(response.body.length).toBeLessThan(1_500_000);
    expect(cpuMs).toBeLessThan(1_000);
  });

  it("renders the editor's preview by the same rules, for whoever may edit questions", async () => {
    const render = (headers: Record<string, string>, payload: unknown) =>
      app.inject({ method: "POST", url: "/api/questions/render", headers, payload: payload as object });
    const response = await render(admin, { text: CODE_QUESTION, options: ["`6`", "2 < 3", ""] });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-store");
    const body = response.json();
    expectRendered(CODE_QUESTION, body.html);
    expect(body.options).toEqual(["<code>6</code>", "2 &lt; 3", ""]);
    expect((await render(admin, { text: HOSTILE_QUESTION, options: [] })).json().html).toBe(HOSTILE_HTML);
    expect((await render(admin, { text: "" })).json()).toEqual({ html: "", options: [] });

    const refused = async (payload: unknown, field: string, message: string) => {
      const answer = await render(admin, payload);
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json().fields?.[field]).toBe(message);
    };
    await refused({ text: "a\u0000b" }, "text", "Question must not contain control characters");
    await refused({ text: "x".repeat(2001) }, "text", "Question must be at most 2000 characters");
    await refused({ text: "ok", options: ["a\nb"] }, "options.0", "Option text must not contain control characters");
    await refused(
      { text: "ok", options: ["y".repeat(501)] },
      "options.0",
      "Option text must be at most 500 characters",
    );
    await refused({ text: "ok", options: Array(11).fill("o") }, "options", "A question can have at most 10 options");
    await refused({ text: 5 }, "text", "Question must be text");

    await createAdmin(database.db, "rich-viewer", "viewer test password", "viewer");
    const login = await app.inject({
      method: "POST",
      url: "/api/auth/admin/login",
      payload: { username: "rich-viewer", password: "viewer test password" },
    });
    const viewer = await render(bearer(login.json().token), { text: "x" });
    expect(viewer.statusCode).toBe(403);
    expect((await render({}, { text: "x" })).statusCode).toBe(401);
  });

  it("serves a student the html of each question and option, and their result the html of each question", async () => {
    const student = bearer((await registerStudent(app)).token);
    const served = await app.inject({ method: "GET", url: "/api/quiz/questions", headers: student });
    expect(served.statusCode, served.body).toBe(200);
    const questions = served.json() as QuizQuestion[];
    expect(questions).toHaveLength(3);
    for (const question of questions) {
      expectRendered(question.text, question.html);
      expectOptions(question.options);
    }
    const answers = questions.map((question) => ({ questionId: question._id, optionId: question.options[0]?._id }));
    const submitted = await app.inject({
      method: "POST",
      url: "/api/quiz/submit",
      headers: student,
      payload: { answers },
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const result = await app.inject({
      method: "GET",
      url: `/api/quiz/result/${submitted.json().resultId}`,
      headers: student,
    });
    const answered = (result.json() as ReleasedResult).answers;
    expect(answered).toHaveLength(3);
    for (const answer of answered) expectRendered(answer.question.text, answer.question.html);

    // The question-by-question client gets the same.
    const paced = bearer((await registerStudent(app)).token);
    const started = await app.inject({ method: "POST", url: "/api/quiz/start", headers: paced });
    expect(started.statusCode, started.body).toBe(200);
    const state = started.json();
    for (const question of [...state.questions, ...(state.question ? [state.question] : [])] as QuizQuestion[]) {
      expectRendered(question.text, question.html);
      expectOptions(question.options);
    }
  });
});
