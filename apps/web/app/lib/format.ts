// Dates and numbers in the admin area, one way each (decision 027). A score is always marks out of the questions
// with its percentage to two decimals, as the student's result page and every export write it; a share of
// students (facility, an option's share) to one decimal; a count as the browser's locale writes it. A time that
// belongs to a drive (a submission, a registration, a drive's closing) is shown in the drive's time zone with the
// zone named (`formatInZone`, lib/zoned-time.ts); only the admin's own events (sign-ins, the audit log, feedback
// and enquiries received) use the browser's time zone, written the same way.
import { scorePercentage } from "@trainwise/contract/quiz";
import { formatInZone } from "./zoned-time.ts";

const whole = new Intl.NumberFormat();
const marksFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });

/** An admin's own event (a sign-in, an audit entry, feedback received), in the browser's time zone. */
export function formatDateTime(iso: string): string {
  return formatInZone(iso, Intl.DateTimeFormat().resolvedOptions().timeZone);
}

export function formatCount(value: number): string {
  return whole.format(value);
}

/** "87.50%": a score's percentage (0–100, marks after negative marking), always with two decimals. */
export function formatScorePercent(value: number): string {
  return `${value.toFixed(2)}%`;
}

/** "7/8 (87.50%)": marks out of the questions, and the percentage as `formatScorePercent` writes it. */
export function formatScore(marks: number, total: number): string {
  return `${marksFormat.format(marks)}/${whole.format(total)} (${scorePercentage(marks, total)}%)`;
}

/** "62.5%": a share of students (who answered right, who chose an option), with one decimal. */
export function formatShare(value: number): string {
  return `${value.toFixed(1)}%`;
}
