// The live board as server-sent events (decision 017): one stream per watching admin, its heartbeat, its session
// checked as it runs, and its end however it comes (the admin leaves, the session ends, the instance drains).
import { LIVE_EVENTS } from "@trainwise/contract/live-board";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { openEventStream } from "../../http/event-stream.ts";
import { HttpError } from "../../http/http-error.ts";
import { adminOf } from "../../plugins/auth.ts";

/** Live board streams: a comment line this often keeps proxies and the server's idle timeout from closing them. */
export const LIVE_STREAM = {
  heartbeatMs: 15_000,
  /**
   * A stream ends after this long (or when the admin's token expires, if sooner) and the browser reconnects at
   * once: the reconnection checks the admin's session again, so a revoked one stops being served within it.
   */
  longestMs: 5 * 60_000,
  /** What the browser waits before reconnecting after a drop (the `retry` field of server-sent events). */
  retryMs: 2_000,
  /**
   * How often an open stream checks its admin's session again, as every request does once: an admin disabled,
   * signed out or demoted stops receiving students' names and scores within this time, not at the stream's end.
   */
  sessionCheckMs: 2_000,
  /**
   * Streams one admin session may hold open on an instance at once: boards of a few drives in tabs, with room for
   * a tab's reconnection before the server notices its old connection closed. Each stream checks its session
   * every `sessionCheckMs`, so more than this is load on the database, not use.
   */
  perSession: 5,
};

/**
 * Opens live board streams for one instance. Open streams are counted per admin session on this instance, not in
 * PostgreSQL: what a stream costs (a connection, timers, a session check every 2 s from this instance's pool) is
 * each instance's, so a session holds at most `perSession` × instances streams, a fixed bound. A shared count
 * would need its rows released by an instance that crashed, or the admin stays locked out of the board until
 * they expire.
 */
export function liveStreams(app: FastifyInstance) {
  const openStreams = new Map<string, number>();

  /** Streams the board of `driveId` (already known to exist) to the admin who asked. */
  return function openStream(request: FastifyRequest, reply: FastifyReply, driveId: string): FastifyReply {
    const session = adminOf(request).tokenId;
    const open = openStreams.get(session) ?? 0;
    if (open >= LIVE_STREAM.perSession) {
      throw new HttpError(
        429,
        `You have ${LIVE_STREAM.perSession} live boards open already. Close one (in another tab or window) to ` +
          "follow this one.",
      );
    }
    openStreams.set(session, open + 1);
    let unwatch = () => {};
    const untilExpiry = adminOf(request).expiresAt.getTime() - Date.now();
    const stream = openEventStream(request, reply, {
      ...LIVE_STREAM,
      longestMs: Math.min(LIVE_STREAM.longestMs, untilExpiry),
      checkSession: () => app.requireAdmin(request),
      onEnd: () => {
        const left = (openStreams.get(session) ?? 1) - 1;
        if (left > 0) openStreams.set(session, left);
        else openStreams.delete(session);
        unwatch();
      },
    });
    if (!stream.ended) {
      unwatch = app.liveBoards.watch(driveId, {
        board: (board) => stream.send(LIVE_EVENTS.board, board),
        changes: (changes) => stream.send(LIVE_EVENTS.changes, changes),
        end: stream.end,
      });
    }
    return stream.answer();
  };
}
