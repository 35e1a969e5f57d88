// Request limits that count per registration instead of per address (decision 036). On drive day a whole college
// sits behind one network address, so a limit per address refuses the students past its count although each of
// them is one person. Where a request names who it is for (an e-mail address, a personal link), the limit counts per
// name; a request naming someone it cannot prove to be is refused by the lookup and counted against the address by
// the wrong-tries limit (students/drive-code-guesses.ts), which slows guessing from one network.
import { createHash } from "node:crypto";

/** What a request may name a registration by. */
export interface RegistrationNamed {
  email?: unknown;
  linkToken?: unknown;
}

/**
 * The counter key of the registration a request names: its personal link, else its e-mail address (as registration
 * compares them, case aside). Hashed, since the counters sit in a table every instance reads: a link's token there
 * would be the link itself.
 */
export function registrationNamedKey(kind: string, named: RegistrationNamed | undefined): string {
  const name =
    typeof named?.linkToken === "string"
      ? `link:${named.linkToken}`
      : `email:${String(named?.email ?? "").toLowerCase()}`;
  return `${kind}:${createHash("sha256").update(name).digest("base64url")}`;
}
