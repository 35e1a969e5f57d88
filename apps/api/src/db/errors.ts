// What PostgreSQL's refusals mean to a repository. Drizzle wraps the driver's error, so the cause chain is read.

/**
 * Whether the database refused a duplicate (SQLSTATE 23505, unique_violation): of any unique constraint, or of
 * the one named.
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  return sqlState(error, (code, violated) => code === "23505" && (constraint === undefined || violated === constraint));
}

/**
 * Whether PostgreSQL ended the transaction to break a deadlock (SQLSTATE 40P01): rolled back whole, so the work
 * may be tried again.
 */
export function isDeadlock(error: unknown): boolean {
  return sqlState(error, (code) => code === "40P01");
}

/** Whether an error of the driver, found down the cause chain, has a SQLSTATE (and constraint) that `matches`. */
function sqlState(error: unknown, matches: (code: unknown, constraint: unknown) => boolean): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) {
    const { code, constraint } = cause as { code?: unknown; constraint?: unknown };
    if (typeof code === "string" && code.length === 5) return matches(code, constraint);
  }
  return false;
}
