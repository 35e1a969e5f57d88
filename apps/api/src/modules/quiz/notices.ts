// What invigilators tell candidates' screens while a drive runs (decision 038): stored first, then pushed down the
// stream of every candidate it is for.
//
// Each instance reads a drive's notices of the last NOTICE_LOOKBACK_MS about once a second, once for all the
// candidates of that drive connected to it, and only while one is. Reading the database is what makes it work with
// several instances, as the live board does (decision 017): a message sent through instance A is in instance B's
// next read. A notice committed late (its transaction began before an earlier-read one) is still inside the
// lookback, and the notices already pushed are remembered by id, so none is pushed twice or missed.

import type { Notice, NoticeKind } from "@trainwise/contract/notices";
import { type Executor, type NamedStatement, runNamed } from "../../db/client.ts";
import type { AttemptsOf } from "./repository/attempt-rows.ts";

/** How far back each read looks: longer than any transaction that stores a notice runs. */
export const NOTICE_LOOKBACK_MS = 30_000;

/** How often a drive with a connected candidate is read. */
const NOTICE_READ_EVERY_MS = 1_000;

interface NoticeRow {
  id: string;
  studentId: string | null;
  kind: NoticeKind;
  text: string | null;
  createdAt: string;
}

const noticeOf = (row: NoticeRow): Notice => ({
  _id: row.id,
  kind: row.kind,
  text: row.text,
  sentAt: new Date(row.createdAt).toISOString(),
});

const recentNoticesStatement: NamedStatement = {
  name: "notices.recent",
  // $1 drive, $2 milliseconds back
  text: `select id, student_id as "studentId", kind, text, created_at as "createdAt" from drive_notices
    where drive_id = $1::uuid and created_at > now() - make_interval(secs => $2::int / 1000.0)
    order by created_at, id`,
};

const latestMessagesStatement: NamedStatement = {
  name: "notices.latest-messages",
  // $1 drive, $2 how many
  text: `select id, student_id as "studentId", kind, text, created_at as "createdAt" from (
      select * from drive_notices where drive_id = $1::uuid and kind = 'message'
      order by created_at desc, id desc limit $2::int
    ) latest order by created_at, id`,
};

const storeMessageStatement: NamedStatement = {
  name: "notices.store-message",
  text: "insert into drive_notices (drive_id, kind, text) values ($1::uuid, 'message', $2)",
};

const storeTimeAddedStatement: NamedStatement = {
  name: "notices.store-time-added",
  // $1 one student (their drive's), or $2 every screen of a drive
  text: `insert into drive_notices (drive_id, student_id, kind)
    select drive_id, id, 'time-added' from students where id = $1::uuid
    union all select $2::uuid, null, 'time-added' where $2::uuid is not null`,
};

const storeDriveNoticeStatement: NamedStatement = {
  name: "notices.store-drive-notice",
  text: "insert into drive_notices (drive_id, kind) values ($1::uuid, $2)",
};

/** Stores word that a drive was paused or resumed (decision 039), for every screen of it. */
export async function storePauseNotice(db: Executor, driveId: string, kind: "paused" | "resumed"): Promise<void> {
  await runNamed(db, storeDriveNoticeStatement, [driveId, kind]);
}

/** Stores a message to every candidate of a drive. */
export async function storeMessage(db: Executor, driveId: string, text: string): Promise<void> {
  await runNamed(db, storeMessageStatement, [driveId, text]);
}

/**
 * Stores word that time was added: to one student's screen, or to every screen of a drive (each page then reads
 * its own clock; one whose attempt was not running learns nothing new).
 */
export async function storeTimeAdded(db: Executor, of: AttemptsOf): Promise<void> {
  const studentId = "studentId" in of ? of.studentId : null;
  const driveId = "driveId" in of ? of.driveId : null;
  await runNamed(db, storeTimeAddedStatement, [studentId, driveId]);
}

const driveOfStudentStatement: NamedStatement = {
  name: "notices.drive-of-student",
  text: `select drive_id as "driveId" from students where id = $1::uuid`,
};

/** The drive a student registered for; undefined when the student is gone. */
export async function driveOfStudent(db: Executor, studentId: string): Promise<string | undefined> {
  return (await runNamed<{ driveId: string }>(db, driveOfStudentStatement, [studentId]))[0]?.driveId;
}

/** The drive's latest messages, oldest first: what a screen that (re)connects is sent. */
export async function latestMessages(db: Executor, driveId: string, count: number): Promise<Notice[]> {
  return (await runNamed<NoticeRow>(db, latestMessagesStatement, [driveId, count])).map(noticeOf);
}

/** A connected candidate's screen. */
export interface NoticeWatcher {
  studentId: string;
  notice: (notice: Notice) => void;
  /** The instance stops pushing (it drains): the screen reconnects elsewhere. */
  end: () => void;
}

interface WatchedDrive {
  watchers: Set<NoticeWatcher>;
  /** Notices of the lookback already pushed, by id, with when they were stored. */
  pushed: Map<string, number>;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Resolved once the drive's first read is done. */
  ready: Promise<void>;
}

/** One instance's pushing of notices to the screens connected to it. */
export class CandidateNotices {
  readonly #db: Executor;
  readonly #drives = new Map<string, WatchedDrive>();
  #stopped = false;
  /** Called when a read fails; the next read is tried on the usual timer. */
  onError: (error: unknown) => void = () => {};

  constructor(db: Executor) {
    this.#db = db;
  }

  /** Drives read for the screens connected to this instance. */
  get watchedDrives(): number {
    return this.#drives.size;
  }

  /**
   * Starts pushing the drive's notices to a screen: those stored after `ready` resolves (the drive's first read on
   * this instance, or at once when it is read already). What was stored before, the caller reads after `ready`:
   * so a notice stored while the screen connects is either read or pushed. `stop` stops.
   */
  watch(driveId: string, watcher: NoticeWatcher): { ready: Promise<void>; stop: () => void } {
    if (this.#stopped) {
      watcher.end();
      return { ready: Promise.resolve(), stop: () => {} };
    }
    let drive = this.#drives.get(driveId);
    if (!drive) {
      const created: WatchedDrive = {
        watchers: new Set(),
        pushed: new Map(),
        timer: undefined,
        ready: Promise.resolve(),
      };
      this.#drives.set(driveId, created);
      // The first read only learns what the lookback holds: stored before the screens connected, it is theirs to read.
      created.ready = this.#read(driveId, created, false);
      drive = created;
    }
    drive.watchers.add(watcher);
    const watched = drive;
    return {
      ready: watched.ready,
      stop: () => {
        watched.watchers.delete(watcher);
        if (watched.watchers.size === 0 && this.#drives.get(driveId) === watched) {
          clearTimeout(watched.timer);
          this.#drives.delete(driveId);
        }
      },
    };
  }

  /** Ends every stream and reads no more (the instance drains or closes). */
  stop(): void {
    this.#stopped = true;
    for (const drive of this.#drives.values()) {
      clearTimeout(drive.timer);
      for (const watcher of drive.watchers) watcher.end();
    }
    this.#drives.clear();
  }

  /** Reads the drive's lookback and pushes what is new (`push`), then reads again after the interval. */
  #read(driveId: string, drive: WatchedDrive, push: boolean): Promise<void> {
    return runNamed<NoticeRow>(this.#db, recentNoticesStatement, [driveId, NOTICE_LOOKBACK_MS])
      .then((rows) => {
        if (this.#drives.get(driveId) !== drive) return;
        for (const row of rows) {
          if (drive.pushed.has(row.id)) continue;
          drive.pushed.set(row.id, new Date(row.createdAt).getTime());
          if (!push) continue;
          const notice = noticeOf(row);
          for (const watcher of drive.watchers) {
            if (row.studentId === null || row.studentId === watcher.studentId) watcher.notice(notice);
          }
        }
        // Ids older than the lookback can never be read again: forgotten.
        const oldest = Date.now() - 2 * NOTICE_LOOKBACK_MS;
        for (const [id, at] of drive.pushed) if (at < oldest) drive.pushed.delete(id);
      })
      .catch((error) => this.onError(error))
      .finally(() => {
        if (this.#drives.get(driveId) !== drive) return;
        drive.timer = setTimeout(() => void this.#read(driveId, drive, true), NOTICE_READ_EVERY_MS);
        drive.timer.unref();
      });
  }
}
