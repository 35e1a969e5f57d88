// What PostgreSQL's refusals mean to a repository. Drizzle wraps the driver's error, so the cause chain is read.

/**
 * Whether the database refused a duplicate (SQLSTATE 23505, unique_violation): of any unique constraint, or of
 * the one named.
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) {
    const { code, constraint: violated } = cause as { code?: unknown; constraint?: unknown };
    if (code === "23505") return constraint === undefined || violated === constraint;
  }
  return false;
}
