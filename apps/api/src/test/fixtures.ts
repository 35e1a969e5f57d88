// Builders for API tests: an admin with a token, registered students, a known question bank.
import type { AdminRole } from "@trainwise/contract/admin-roles";
import type { StudentRegistration } from "@trainwise/contract/auth";
import type { Difficulty } from "@trainwise/contract/questions";
import type { AttemptState, QuizQuestion } from "@trainwise/contract/quiz";
import type { FastifyInstance } from "fastify";
import type pg from "pg";
import type { Database } from "../db/client.ts";
import { createAdmin } from "../modules/admins/repository.ts";
import { createQuestion, type NewQuestion } from "../modules/questions/repository.ts";
import { renderOptionText, renderQuestionText } from "../rich-text/render.ts";
import { markSensitive } from "./log-watch.ts";

let counter = 0;

export function studentInput(overrides: Partial<StudentRegistration> = {}): StudentRegistration {
  counter++;
  return {
    name: `Student ${counter}`,
    email: `student${counter}-${Date.now()}@example.com`,
    phone: "9876543210",
    usnNo: `1TW24CS${String(counter).padStart(3, "0")}-${Date.now() % 100000}`,
    college: "Lakeview Institute of Technology",
    course: "B.E.",
    group: "Computer Science",
    year: "2025",
    ...overrides,
  };
}

export async function registerStudent(app: FastifyInstance, overrides: Partial<StudentRegistration> = {}) {
  const input = studentInput(overrides);
  const response = await app.inject({ method: "POST", url: "/api/auth/student/register", payload: input });
  if (response.statusCode !== 200) throw new Error(`registration failed: ${response.body}`);
  markSensitive(input.email, "personal", "a student's e-mail address");
  markSensitive(input.phone, "personal", "a student's phone");
  markSensitive(response.json().token, "secret", "a student's token");
  markSensitive(response.json().resumeCode, "secret", "a resume code");
  return { input, token: response.json().token as string, resumeCode: response.json().resumeCode as string };
}

/** A signed-in admin's token: an owner unless `role` says otherwise. */
export async function adminToken(
  app: FastifyInstance,
  db: Database,
  username = `admin${++counter}`,
  role: AdminRole = "owner",
) {
  const password = "admin test password";
  await createAdmin(db, username, password, role);
  const response = await app.inject({ method: "POST", url: "/api/auth/admin/login", payload: { username, password } });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.body}`);
  markSensitive(password, "secret", "an admin's password");
  markSensitive(response.json().token, "secret", "an admin's token");
  return response.json().token as string;
}

/** `count` questions whose correct option's text starts with "right". */
export async function seedQuestions(db: Database, count: number): Promise<void> {
  for (let index = 0; index < count; index++) {
    const input: NewQuestion = {
      text: `Question ${index + 1}?`,
      category: index % 2 ? "Aptitude" : "Programming",
      difficulty: "medium",
      type: "single",
      scoring: "all_or_nothing",
      options: [
        { text: `right ${index + 1}`, isCorrect: true },
        { text: `wrong A ${index + 1}`, isCorrect: false },
        { text: `wrong B ${index + 1}`, isCorrect: false },
        { text: `wrong C ${index + 1}`, isCorrect: false },
      ],
    };
    await createQuestion(db, input);
  }
}

/**
 * `count` questions of a category of their own, written straight into the bank, the difficulties taken in turn;
 * each has one option whose text starts "right" and two starting "wrong A" and "wrong B". A test drawing only this
 * category meets keys nobody has seen, whatever other tests of the file have shown (decision 024).
 */
export async function seedCategory(
  pool: pg.Pool,
  category: string,
  count: number,
  difficulties: Difficulty[] = ["medium"],
): Promise<void> {
  await pool.query(
    `with made as (
       insert into questions (text, category, difficulty)
       select $1 || ' question ' || n || '?', $1, ($3::text[])[(n - 1) % cardinality($3::text[]) + 1]::difficulty
       from generate_series(1, $2::int) n returning id, text)
     insert into question_options (question_id, text, is_correct, weight, position)
     select made.id, o.text || ' of ' || made.text, o.correct, case when o.correct then 100 else 0 end, o.position from made,
       (values ('right', true, 0), ('wrong A', false, 1), ('wrong B', false, 2)) as o(text, correct, position)`,
    [category, count, difficulties],
  );
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** An easy question of `category` through the API, with the options "right" and "wrong" (as sitQuiz picks them). */
export async function addRightWrongQuestion(
  app: FastifyInstance,
  admin: ReturnType<typeof bearer>,
  category: string,
  text: string,
) {
  const created = await app.inject({
    method: "POST",
    url: "/api/questions",
    headers: admin,
    payload: {
      text,
      category,
      difficulty: "easy",
      options: [
        { text: "right", isCorrect: true },
        { text: "wrong", isCorrect: false },
      ],
    },
  });
  if (created.statusCode !== 201) throw new Error(`creating a question: ${created.statusCode} ${created.body}`);
}

/**
 * A student of the drive `driveCode` registers, starts the quiz, answers each question `pick` names by the option
 * with the text it gives (leaving the others), and submits: their token, the started attempt and the result's id.
 */
export async function sitQuiz(app: FastifyInstance, driveCode: string, pick: (text: string) => string | undefined) {
  const { token } = await registerStudent(app, { driveCode });
  const reply = async (request: { method: "POST" | "PUT"; url: string; payload?: object }) => {
    const response = await app.inject({ ...request, headers: bearer(token) });
    if (response.statusCode !== 200) throw new Error(`${request.url}: ${response.statusCode} ${response.body}`);
    return response.json();
  };
  const state = (await reply({ method: "POST", url: "/api/quiz/start" })) as Extract<
    AttemptState,
    { status: "in_progress" }
  >;
  for (const question of state.questions) {
    const choice = pick(question.text);
    if (choice === undefined) continue;
    const option = question.options.find((candidate) => candidate.text === choice);
    await reply({
      method: "PUT",
      url: "/api/quiz/answers",
      payload: { questionId: question._id, optionId: option?._id },
    });
  }
  const submitted = await reply({ method: "POST", url: "/api/quiz/submit", payload: { answers: [] } });
  return { token, state, resultId: submitted.resultId as string };
}

/** Every question served in an attempt, in order, with its options as the student sees them (read directly). */
export async function servedInOrder(pool: pg.Pool, attemptId: string): Promise<QuizQuestion[]> {
  const { rows } = await pool.query<QuizQuestion>(
    `select q.id as "_id", q.text, q.category, q.difficulty::text as difficulty, q.type::text as type,
       (select json_agg(json_build_object('_id', o.id, 'text', o.text) order by shown.ordinality)
          from unnest(aq.option_order) with ordinality as shown(id, ordinality)
          join question_options o on o.id = shown.id) as options
     from attempt_questions aq join questions q on q.id = aq.question_id
     where aq.attempt_id = $1 order by aq.position`,
    [attemptId],
  );
  // The html a student is served beside each text comes from the renderer, as the quiz's own answers do.
  return rows.map((row) => ({
    ...row,
    html: renderQuestionText(row.text),
    options: row.options.map((option) => ({ ...option, html: renderOptionText(option.text) })),
  }));
}

/** The student whose attempt `attemptId` is: the admin's routes name students, a start answers with its attempt. */
export async function studentOfAttempt(pool: pg.Pool, attemptId: string): Promise<string> {
  const { rows } = await pool.query<{ studentId: string }>(
    `select student_id as "studentId" from attempts where id = $1::uuid`,
    [attemptId],
  );
  return rows[0]?.studentId as string;
}

/** A student registered for the drive `driveCode` who has started its quiz: their token, the start's answer, ids. */
export async function startedStudent(app: FastifyInstance, pool: pg.Pool, driveCode: string) {
  const { token } = await registerStudent(app, { driveCode });
  const started = await app.inject({ method: "POST", url: "/api/quiz/start", headers: bearer(token) });
  if (started.statusCode !== 200) throw new Error(`start failed: ${started.body}`);
  const state = started.json() as Extract<AttemptState, { status: "in_progress" }>;
  return { token, state, attemptId: state.attemptId, studentId: await studentOfAttempt(pool, state.attemptId) };
}

/**
 * Moves an attempt's times `seconds` into the past, as if that much time had gone by on its clock, and since the
 * student was last heard from (decision 040) when nothing else is done meanwhile.
 */
export async function attemptTimePasses(pool: pg.Pool, attemptId: string, seconds: number): Promise<void> {
  await pool.query(
    `update attempts set started_at = started_at - make_interval(secs => $2),
       current_started_at = current_started_at - make_interval(secs => $2),
       deadline_at = deadline_at - make_interval(secs => $2),
       section_deadline_at = section_deadline_at - make_interval(secs => $2),
       last_contact_at = last_contact_at - make_interval(secs => $2),
       reloaded_at = reloaded_at - make_interval(secs => $2)
     where id = $1::uuid`,
    [attemptId, seconds],
  );
  await pool.query(
    `update attempt_questions set answered_at = answered_at - make_interval(secs => $2),
       visited_at = visited_at - make_interval(secs => $2)
     where attempt_id = $1::uuid`,
    [attemptId, seconds],
  );
}
