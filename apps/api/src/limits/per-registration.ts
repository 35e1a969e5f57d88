// Request limits that a request proving whom it is for does not use up (decision 036). On drive day a whole college
// sits behind one network address, so a limit per address refuses the students past its count although each of them
// is one person. Such a limit still counts every request of the address as it arrives, so that a flood of guesses is
// held at the count; a request that then proves whom it is for (a roster's student, a personal link, an e-mail code,
// a resume code that matches, a drive's own code) is taken back, and only those that prove nothing stay counted.
import type { FastifyRequest } from "fastify";
import { type CounterStore, rateLimitCounterKey } from "./counters.ts";

/** The key each request was counted under by its route's limit, while it is being answered. */
const counted = new WeakMap<FastifyRequest, string>();

/** @fastify/rate-limit's `onExceeding`: the request was counted under `key` and let through. */
export function rememberCounted(request: FastifyRequest, key: string): void {
  counted.set(request, key);
}

/** Takes back the count of a request that proved whom it is for; nothing for one that was not counted. */
export async function takeBackProved(counters: CounterStore, request: FastifyRequest): Promise<void> {
  const key = counted.get(request);
  if (key === undefined) return;
  counted.delete(request);
  await counters.takeBack(rateLimitCounterKey(request.routeOptions, key));
}
