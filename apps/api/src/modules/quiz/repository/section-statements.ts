// Leaving a section in one statement (decision 034): the common case of Leave section, which every student of a
// test timed per section sends once per section, as Next is sent once per question. The long way (the service's
// leaveSection, under the row's lock, with timing.ts's nextSectionClock) stays for everything else: a section
// already left, one whose time has run out, a next section whose time is over before it opens, the last section.
// The arithmetic is timing.ts's, in SQL (clock-sql.ts), and clock-sql.test.ts compares the two.

import type { ServedSection } from "@trainwise/contract/drives";
import { type Executor, type NamedStatement, runNamed } from "../../../db/client.ts";
import { type Choice, questionRevisionSql, type ServedRef, saveAnswerSql } from "./attempt-rows.ts";
import {
  acceptsAnswerSql,
  clockColumns,
  clockSelectSql,
  driveRunsSql,
  runOutSql,
  sectionEndsAtSql,
  sectionsFromSecondsSql,
  windowStartSql,
} from "./clock-sql.ts";
import { type ClockRow, choiceServedSql } from "./clock-statements.ts";

const leaveSectionStatement: NamedStatement = {
  name: "quiz.leave-section",
  // $1 student, $2 the first position of the section being left, $3 now, $4 grace seconds; the answer it carries
  // (as Next carries one): $5 its question (null: none), $6 its option or $7 a multiple answer's options.
  text: `
    with attempt as materialized (
      select a.id, a.drive_id, a.sections, a.deadline_at as attempt_deadline_at, ${clockSelectSql("a")}
      from attempts a
      where a.student_id = $1::uuid and a.submitted_at is null and a.timing_mode = 'per_section'
        and ${driveRunsSql("a")}
      for update
    ), closing as (
      -- The open section, not the last, whose time (with the grace) has not run out: it ends now, or when its
      -- time ended if that came first (nextSectionClock's start).
      select t.*, least($3::timestamptz, ${sectionEndsAtSql(clockColumns("t"))}) as starts_at
      from attempt t
      where t.section_first = $2::int and t.section_end < t.total_questions
        and not ${runOutSql(clockColumns("t"), "$3::timestamptz", "$4::int")}
    ), answer as (
      -- The answer carried, to a question of the section being left that takes it now (acceptsAnswer).
      select c.id, aq.position, case when c.paced then ${windowStartSql(clockColumns("c"), "aq.position")} end
               as window_start
      from closing c join attempt_questions aq on aq.attempt_id = c.id and aq.question_id = $5::uuid
      where ${choiceServedSql("aq", "$6::uuid", "$7::uuid[]")}
        and ${acceptsAnswerSql(clockColumns("c"), { position: "aq.position", now: "$3::timestamptz", graceSeconds: "$4::int" })}
    ), saved as (
      update attempt_questions aq
      set ${saveAnswerSql({ optionId: "$6::uuid", optionIds: "$7::uuid[]", now: "$3::timestamptz", windowStart: "w.window_start" })}
      from answer w where aq.attempt_id = w.id and aq.position = w.position
      returning aq.position
    ), opened as (
      -- The next section's clock (sectionClock) and the attempt's last moment from it (deadlineFrom).
      select c.id, c.drive_id, c.sections, c.total_questions, s.paced, s.seconds_per_question, c.section_end as section_first,
             c.section_end + s.question_count as section_end, c.starts_at,
             least(c.starts_at + make_interval(secs => s.question_count * s.seconds_per_question),
                   c.attempt_deadline_at) as section_deadline_at,
             least(c.attempt_deadline_at,
                   c.starts_at + make_interval(secs => ${sectionsFromSecondsSql("c", "c.section_end")}))
               as attempt_deadline_at
      from closing c cross join lateral (
        select (x.value->>'questionCount')::int as question_count,
               coalesce((x.value->>'secondsPerQuestion')::int, 0) as seconds_per_question,
               coalesce(x.value->>'timing' = 'per_question', false) as paced
        from (
          select value, sum((value->>'questionCount')::int) over (order by ordinality)
                          - (value->>'questionCount')::int as first
          from jsonb_array_elements(c.sections) with ordinality
        ) x
        where x.first = c.section_end
      ) s
      -- All of it or nothing, as Next: an answer sent that is not taken sends the caller the long way, to say why.
      where $5::uuid is null or exists (select from answer)
    ), moved as (
      -- A next section whose time is over by now is never opened (nextSectionClock): the long way skips it. Its
      -- time ends at its deadline, whether paced or on one clock, since its windows end there too.
      update attempts a
      set current_position = o.section_first, current_started_at = o.starts_at,
          seconds_per_question = o.seconds_per_question, paced = o.paced, section_first = o.section_first,
          section_end = o.section_end, section_deadline_at = o.section_deadline_at,
          deadline_at = o.attempt_deadline_at
      from opened o
      where a.id = o.id and o.section_deadline_at > $3::timestamptz
      returning a.id
    )
    select o.id as "attemptId", o.sections, o.total_questions as "totalQuestions",
           o.section_first as "currentPosition",
           o.starts_at as "currentStartedAt", o.seconds_per_question as "secondsPerQuestion", o.paced,
           o.section_first as "sectionFirst", o.section_end as "sectionEnd",
           o.section_deadline_at as "sectionDeadlineAt",
           (select t.name from drives d join tests t on t.id = d.test_id where d.id = o.drive_id) as "testName",
           -- The answers and the palette as they stood before the answer carried (which the caller adds), and the
           -- questions the student may see now (visibleQuestions): the open one of a paced section, the section's
           -- own on one clock.
           (select coalesce(json_agg(json_build_object('questionId', aq.question_id,
                     'selectedOptionId', aq.selected_option_id, 'selectedOptionIds', aq.selected_option_ids,
                     'visited', aq.visited_at is not null, 'marked', aq.marked_for_review) order by aq.position), '[]')
              from attempt_questions aq where aq.attempt_id = o.id) as slots,
           (select coalesce(json_agg(json_build_object('questionId', aq.question_id, 'optionOrder', aq.option_order,
                     'revision', ${questionRevisionSql("q")}) order by aq.position), '[]')
              from attempt_questions aq join questions q on q.id = aq.question_id
              where aq.attempt_id = o.id
                and aq.position >= o.section_first
                and aq.position < case when o.paced then o.section_first + 1 else o.section_end end) as served
    from opened o join moved m on m.id = o.id`,
};

/** An answer and the palette's marks of one served question, as a state in progress shows them. */
export interface SlotState {
  questionId: string;
  selectedOptionId: string | null;
  selectedOptionIds: string[] | null;
  visited: boolean;
  marked: boolean;
}

/** What leaving a section in one statement did: the next section's clock, and what the student's state needs. */
export type SectionLeft = ClockRow & {
  attemptId: string;
  testName: string;
  totalQuestions: number;
  /** The sections as the attempt was served them. */
  sections: ServedSection[];
  /** Every served question's answer and marks, in order of position. */
  slots: SlotState[];
  /** The questions the student may see now, in order of position. */
  served: ServedRef[];
};

/**
 * Leave section in one statement, when it is the common case: the student's open attempt is timed per section,
 * `sectionFirst` is its open section and not its last, that section's time has not run out (with `graceSeconds`),
 * the next one's is not over by `now`, and the answer carried, if any, is taken as saving one takes it (saved
 * when the section closes, even if the next section goes the long way). The next section opens as timing.ts's nextSectionClock opens it, the
 * attempt's last moment as deadlineFrom sets it. Undefined, having changed nothing, for anything else: the caller
 * takes the long way, which says why or does what the case needs.
 */
export async function leaveSectionIfOpen(
  db: Executor,
  values: {
    studentId: string;
    sectionFirst: number;
    now: Date;
    graceSeconds: number;
    answer?: { questionId: string; choice: Choice };
  },
): Promise<SectionLeft | undefined> {
  const { answer } = values;
  const [row] = await runNamed<SectionLeft>(db, leaveSectionStatement, [
    values.studentId,
    values.sectionFirst,
    values.now,
    values.graceSeconds,
    answer?.questionId ?? null,
    answer?.choice.optionId ?? null,
    answer?.choice.optionIds ?? null,
  ]);
  if (!row || !answer) return row;
  // The statement read the slots before it saved the answer: they are shown as they now are.
  const slots = row.slots.map((slot) =>
    slot.questionId === answer.questionId
      ? { ...slot, selectedOptionId: answer.choice.optionId, selectedOptionIds: answer.choice.optionIds }
      : slot,
  );
  return { ...row, slots };
}
