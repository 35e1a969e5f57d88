// A candidate's screen hears the invigilators as server-sent events (decision 038): one stream per open quiz page,
// sent as the live board's is (http/event-stream.ts). What differs is its scale: a drive's every candidate holds
// one, so a stream costs a socket and three timers, and reads nothing of its own (the instance reads each watched
// drive's notices once for all its screens, notices.ts).
import { MESSAGES_REPLAYED, NOTICE_EVENT, type Notice } from "@trainwise/contract/notices";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { openEventStream } from "../../http/event-stream.ts";
import { HttpError } from "../../http/http-error.ts";
import { studentOf } from "../../plugins/auth.ts";
import { latestMessages } from "./notices.ts";

export const NOTICE_STREAM = {
  /** A comment line this often keeps proxies and the server's idle timeout from closing the stream. */
  heartbeatMs: 15_000,
  /**
   * A stream ends after this long and the page reconnects at once: the reconnection checks the student's session
   * again, and moves the stream to another instance when this one is gone.
   */
  longestMs: 5 * 60_000,
  /** What the page waits before reconnecting after a drop (the `retry` field of server-sent events). */
  retryMs: 2_000,
  /**
   * How often an open stream checks its student's session again (ended by an admin, the student removed): read from
   * the instance's cache of sessions, which hears every change (session-changes.ts), so it costs no query.
   */
  sessionCheckMs: 5_000,
  /** Streams one student may hold open on an instance: the quiz in a tab or two, and a reconnection's overlap. */
  perStudent: 3,
};

/** Opens notice streams for one instance; open streams are counted per student on this instance. */
export function noticeStreams(app: FastifyInstance) {
  const openStreams = new Map<string, number>();

  /** Streams the notices of `driveId`, the caller's drive, to the student who asked. */
  return async function openStream(request: FastifyRequest, reply: FastifyReply, driveId: string) {
    const studentId = studentOf(request).id;
    const open = openStreams.get(studentId) ?? 0;
    if (open >= NOTICE_STREAM.perStudent) {
      throw new HttpError(
        429,
        `Your quiz is open in ${NOTICE_STREAM.perStudent} places already. Close it in another tab or window to follow it here.`,
      );
    }
    openStreams.set(studentId, open + 1);
    let unwatch = () => {};
    const stream = openEventStream(request, reply, {
      ...NOTICE_STREAM,
      checkSession: () => app.requireSittingStudent(request),
      onEnd: () => {
        const left = (openStreams.get(studentId) ?? 1) - 1;
        if (left > 0) openStreams.set(studentId, left);
        else openStreams.delete(studentId);
        unwatch();
      },
    });
    // A notice is sent once, whether it was pushed or read.
    const sent = new Set<string>();
    const send = (notice: Notice) => {
      if (sent.has(notice._id)) return;
      sent.add(notice._id);
      stream.send(NOTICE_EVENT, notice);
    };
    if (stream.ended) return stream.answer();
    // Watched first, the latest messages read once the drive's first read is done: a message stored meanwhile is
    // pushed or read.
    const watching = app.candidateNotices.watch(driveId, { studentId, notice: send, end: stream.end });
    unwatch = watching.stop;
    try {
      await watching.ready;
      for (const message of await latestMessages(app.db, driveId, MESSAGES_REPLAYED)) send(message);
    } catch (error) {
      stream.end();
      throw error;
    }
    return stream.answer();
  };
}
