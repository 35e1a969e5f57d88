// What a drive's item analysis page must show for attempts whose answers a journey fixed, worked out here from
// those answers and not by the server's code (the formulas are docs/decisions/019's), and where the page shows it.
import type { Locator, Page } from "@playwright/test";

/** One submitted attempt: its id (ties in the ranking go to the lower id), its marks, and which questions it got right. */
export interface FixedAttempt {
  id: string;
  marks: number;
  /** By question, in the journey's own order. */
  right: boolean[];
}

export interface ExpectedQuestion {
  /** As the page prints it: "40.0%". */
  facility: string;
  /** As the page prints it: "0.67". */
  discrimination: string;
  flags: string[];
}

/**
 * The summary figures and each question's facility, discrimination index and flags, for a cohort where every
 * attempt was served every question (at least 10 attempts, so the upper and lower groups are formed).
 */
export function expectedAnalysis(attempts: FixedAttempt[], questionCount: number) {
  const count = attempts.length;
  const percents = attempts.map((attempt) => (attempt.marks / questionCount) * 100).sort((a, b) => a - b);
  const mean = percents.reduce((sum, value) => sum + value, 0) / count;
  const middle = Math.floor(count / 2);
  const median =
    count % 2 === 1 ? (percents[middle] ?? 0) : ((percents[middle - 1] ?? 0) + (percents[middle] ?? 0)) / 2;
  const sd = Math.sqrt(percents.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (count - 1));
  const ranked = [...attempts].sort((a, b) => b.marks - a.marks || (a.id < b.id ? -1 : 1));
  const groupSize = Math.ceil(0.27 * count);
  const upper = ranked.slice(0, groupSize);
  const lower = ranked.slice(count - groupSize);
  const share = (group: FixedAttempt[], q: number) => group.filter((attempt) => attempt.right[q]).length / group.length;
  const questions: ExpectedQuestion[] = Array.from({ length: questionCount }, (_, q) => {
    const facility = share(attempts, q) * 100;
    const discrimination = Math.round((share(upper, q) - share(lower, q)) * 100) / 100;
    const flags = [
      ...(discrimination < 0 ? ["Discriminates negatively"] : []),
      ...(facility === 0 ? ["Nobody right"] : []),
      ...(facility === 100 ? ["Too easy"] : []),
    ];
    return { facility: `${facility.toFixed(1)}%`, discrimination: discrimination.toFixed(2), flags };
  });
  return {
    // Scores are written with two decimals everywhere (decision 027).
    mean: `${mean.toFixed(2)}%`,
    median: `${median.toFixed(2)}%`,
    sd: `${(Math.round(sd * 100) / 100).toFixed(1)} points`,
    groups: `${groupSize} attempts each`,
    questions,
  };
}

/** A figure of the page's summary, by its term ("Mean score"). */
export function summaryFigure(page: Page, label: string): Locator {
  return page
    .getByRole("term")
    .filter({ hasText: new RegExp(`^${label}$`) })
    .locator("xpath=following-sibling::dd");
}

/** The cells of the analysis table's row for a question: 0 served, 1 facility, 2 discrimination, 3 options, 4 flags. */
export function analysisCells(page: Page, question: string | RegExp): Locator {
  return page
    .getByRole("table")
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader").filter({ hasText: question }) })
    .getByRole("cell");
}
