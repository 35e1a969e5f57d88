// E-mail verification (decision 025): on a drive that verifies e-mail, a new registration needs the 6-digit code
// last e-mailed to the address it gives, so the address, and the certificate that names it, is the student's own.
// A code works for EMAIL_CODE_MINUTES and for EMAIL_CODE_WRONG_TRIES wrong tries; another can be sent after
// EMAIL_CODE_RESEND_SECONDS, so a guesser gets a few tries a minute, and each new code lands in the owner's inbox.
import { hash, randomInt } from "node:crypto";
import { EMAIL_CODE_MINUTES, EMAIL_CODE_RESEND_SECONDS, EMAIL_CODE_WRONG_TRIES } from "@trainwise/contract/auth";
import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { HttpError } from "../../http/http-error.ts";

function hashEmailCode(driveId: string, email: string, code: string): string {
  return hash("sha256", `${driveId}\n${email.toLowerCase()}\n${code}`);
}

/** A new code for the address, or how many seconds to wait when one was sent less than a resend interval ago. */
export async function newEmailCode(
  db: Executor,
  driveId: string,
  email: string,
): Promise<{ code: string } | { waitSeconds: number }> {
  const code = String(randomInt(1_000_000)).padStart(6, "0");
  // Codes long past their time go as new ones come: the table holds the last hour's codes, no more.
  await db.execute(sql`delete from email_codes where expires_at < now() - interval '1 hour'`);
  const { rows } = await db.execute<{ sent: boolean; wait: number }>(sql`
    with sent as (
      insert into email_codes (drive_id, email, code_hash, expires_at)
      values (${driveId}, lower(${email}), ${hashEmailCode(driveId, email, code)},
              now() + make_interval(mins => ${EMAIL_CODE_MINUTES}))
      on conflict (drive_id, email) do update
        set code_hash = excluded.code_hash, sent_at = now(), expires_at = excluded.expires_at, wrong_tries = 0
        where email_codes.sent_at <= now() - make_interval(secs => ${EMAIL_CODE_RESEND_SECONDS})
      returning true as sent
    )
    select exists (select 1 from sent) as sent,
      coalesce((select ceil(extract(epoch from sent_at + make_interval(secs => ${EMAIL_CODE_RESEND_SECONDS}) - now()))::int
        from email_codes where drive_id = ${driveId} and email = lower(${email})), 0) as wait`);
  const [row] = rows;
  return row?.sent ? { code } : { waitSeconds: Math.max(1, row?.wait ?? EMAIL_CODE_RESEND_SECONDS) };
}

const CODE_NEEDED =
  "This drive checks e-mail addresses: press Send code, then type the 6-digit code we e-mail to this address.";
const CODE_WRONG = "That code is not right. Type the code from the latest e-mail we sent, or send a new code.";
const CODE_SPENT = "That code has expired or was tried too often. Send a new code.";

/**
 * Checks the code typed against the one last sent to the address; a wrong one counts against it. Throws the 400
 * the registration page shows beside the code field; returns when the code is right (the caller uses it up).
 */
export async function checkEmailCode(db: Executor, driveId: string, email: string, code: string | undefined) {
  if (!code) throw new HttpError(400, CODE_NEEDED, { emailCode: CODE_NEEDED });
  const { rows } = await db.execute<{ right: boolean }>(sql`
    update email_codes
      set wrong_tries = wrong_tries + (code_hash <> ${hashEmailCode(driveId, email, code)})::int
    where drive_id = ${driveId} and email = lower(${email}) and expires_at > now()
      and wrong_tries < ${EMAIL_CODE_WRONG_TRIES}
    returning code_hash = ${hashEmailCode(driveId, email, code)} as right`);
  const [checked] = rows;
  if (!checked) throw new HttpError(400, CODE_SPENT, { emailCode: CODE_SPENT });
  if (!checked.right) throw new HttpError(400, CODE_WRONG, { emailCode: CODE_WRONG });
}

/** A registration the code admitted uses it up. */
export async function useUpEmailCode(db: Executor, driveId: string, email: string): Promise<void> {
  await db.execute(sql`delete from email_codes where drive_id = ${driveId} and email = lower(${email})`);
}
