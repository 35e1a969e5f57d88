// Dates and numbers as the admin's browser locale writes them.

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const date = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
const whole = new Intl.NumberFormat();
const percent = new Intl.NumberFormat(undefined, { style: "percent", maximumFractionDigits: 0 });
const precisePercent = new Intl.NumberFormat(undefined, { style: "percent", maximumFractionDigits: 2 });

export function formatDateTime(iso: string): string {
  return dateTime.format(new Date(iso));
}

export function formatDate(iso: string): string {
  return date.format(new Date(iso));
}

export function formatCount(value: number): string {
  return whole.format(value);
}

/** "9/25 (36%)": marks out of the questions, and the share. */
export function formatScore(marks: number, total: number): string {
  const share = total > 0 ? marks / total : 0;
  return `${whole.format(marks)}/${whole.format(total)} (${percent.format(share)})`;
}

/** A percentage given as 0–100 ("36.12%" in English, "36,12 %" in German), at most two decimals. */
export function formatPercent(value: number): string {
  return precisePercent.format(value / 100);
}
