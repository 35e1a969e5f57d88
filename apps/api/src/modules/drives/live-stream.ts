// The live board as server-sent events (decision 017): one stream per watching admin, its heartbeat, its session
// checked as it runs, and its end however it comes (the admin leaves, the session ends, the instance drains).
import { PassThrough } from "node:stream";
import { LIVE_EVENTS } from "@trainwise/contract/live-board";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
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
    const stream = new PassThrough();
    const send = (event: string, data: unknown) => stream.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    stream.write(`retry: ${LIVE_STREAM.retryMs}\n\n`);
    const heartbeat = setInterval(() => stream.write(": heartbeat\n\n"), LIVE_STREAM.heartbeatMs);
    const untilExpiry = adminOf(request).expiresAt.getTime() - Date.now();
    const longest = setTimeout(() => end(), Math.max(0, Math.min(LIVE_STREAM.longestMs, untilExpiry)));
    const sessionCheck = setInterval(() => app.requireAdmin(request).catch(() => end()), LIVE_STREAM.sessionCheckMs);
    let ended = false;
    let unwatch = () => {};
    function end() {
      if (ended) return;
      ended = true;
      const left = (openStreams.get(session) ?? 1) - 1;
      if (left > 0) openStreams.set(session, left);
      else openStreams.delete(session);
      clearInterval(heartbeat);
      clearInterval(sessionCheck);
      clearTimeout(longest);
      unwatch();
      stream.end();
    }
    unwatch = app.liveBoards.watch(driveId, {
      board: (board) => send(LIVE_EVENTS.board, board),
      changes: (changes) => send(LIVE_EVENTS.changes, changes),
      end,
    });
    // The admin left (closed the tab, went to another screen) or the connection dropped: stop reading for them.
    reply.raw.on("close", end);
    // A connection that closed while the drive was being looked up has fired its "close" already, and would hold
    // its place until the stream's longest time (five minutes): a reload storm locked an admin off the board.
    if (request.raw.socket.destroyed) end();
    return (
      reply
        .header("content-type", "text/event-stream; charset=utf-8")
        // nginx passes each event on at once instead of buffering the response (its site file says so too).
        .header("x-accel-buffering", "no")
        .send(stream)
    );
  };
}
