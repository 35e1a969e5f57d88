// How much work a piece of code does, measured as the CPU time of this thread (where Fastify's inject, the parsers
// and the renderers run). Unlike elapsed time it does not grow when other processes share the machine's cores, so
// a bound on it fails when the work itself grows (a quadratic parser, an unbounded render), not when CI is busy.
// The database's own work runs in another process and is not counted.

import v8 from "node:v8";
import vm from "node:vm";

// The collector, without starting the tests with --expose-gc: the flag set now exposes `gc` to new contexts.
v8.setFlagsFromString("--expose-gc");
const collect = vm.runInNewContext("gc") as (options?: { type: "major" | "minor" }) => void;

/**
 * Collects the garbage made so far, so that a measurement that follows pays for its own garbage only: the cost
 * suite measured a route's CPU 30 ms higher when the routes measured before it had left a heap to collect.
 */
export function collectGarbage(): void {
  collect();
}

/**
 * Collects the young garbage made so far (a scavenge): what one sample of a request left, without the full
 * collection that leaves the code that follows colder (it ages compiled functions towards being flushed).
 */
export function collectYoungGarbage(): void {
  collect({ type: "minor" });
}

/** Milliseconds of CPU this thread has used so far. */
export function threadCpuMs(): number {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
}

/** Runs `work` and answers its result with the CPU milliseconds this thread spent on it. */
export async function withCpuMs<T>(work: () => T | Promise<T>): Promise<{ result: T; cpuMs: number }> {
  const started = threadCpuMs();
  const result = await work();
  return { result, cpuMs: threadCpuMs() - started };
}

/**
 * Runs `work` and answers, with its result, the most CPU this thread spent between two turns of its event loop
 * meanwhile: the longest time the loop could not answer anyone else, had the machine been idle.
 */
export async function withLongestSliceMs<T>(work: () => Promise<T>): Promise<{ result: T; longestSliceMs: number }> {
  let longest = 0;
  let last = threadCpuMs();
  let working = true;
  const turn = () => {
    const now = threadCpuMs();
    longest = Math.max(longest, now - last);
    last = now;
    if (working) setImmediate(turn);
  };
  setImmediate(turn);
  const result = await work();
  working = false;
  return { result, longestSliceMs: Math.max(longest, threadCpuMs() - last) };
}

/**
 * Runs `work` and answers the CPU milliseconds this thread spent on it and the longest of them between two turns of
 * its event loop. Unlike withLongestSliceMs it watches the loop with a timer, not by queueing a turn after every
 * turn, so the loop still sleeps while it waits (for the database), and the CPU total is the work's own: the watch's
 * ticks are taken off. A slice may read up to about a millisecond long.
 */
export async function withCostMs<T>(
  work: () => Promise<T>,
): Promise<{ result: T; cpuMs: number; longestSliceMs: number }> {
  const started = threadCpuMs();
  let longest = 0;
  let last = started;
  let ticks = 0;
  const watch = setInterval(() => {
    ticks++;
    const now = threadCpuMs();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  let result: T;
  let ended: number;
  try {
    result = await work();
    ended = threadCpuMs();
  } finally {
    clearInterval(watch);
  }
  // The watch's own ticks are not the work's: on a loaded machine a tick cost about 0.1 ms, and a request that
  // waited two seconds for a worker thread read 228 ms where its own share was 7 to 45 ms. Each tick is taken off
  // at what a tick costs right now, measured on the idle thread.
  const cpuMs = Math.max(0, ended - started - ticks * (await idleTickCostMs()));
  return { result, cpuMs, longestSliceMs: Math.max(longest, ended - last) };
}

/** Ticks the watch is timed over, idle, to learn what one costs. */
const CALIBRATION_TICKS = 21;

/**
 * The CPU milliseconds one tick of a 1 ms watch costs this thread while it has nothing else to do: the median of
 * the ticks' own costs, so that work left over from the request just measured (its garbage, its socket's close),
 * which lands in a tick or two, does not count as the watch's.
 */
async function idleTickCostMs(): Promise<number> {
  const costs: number[] = [];
  let last = threadCpuMs();
  await new Promise<void>((resolve) => {
    const watch = setInterval(() => {
      const now = threadCpuMs();
      costs.push(now - last);
      last = now;
      if (costs.length === CALIBRATION_TICKS) {
        clearInterval(watch);
        resolve();
      }
    }, 1);
  });
  return costs.sort((a, b) => a - b)[Math.floor(CALIBRATION_TICKS / 2)] as number;
}
