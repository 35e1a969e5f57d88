// An upload handed to csv-parse a piece at a time, one piece per turn of the event loop: a parser fed a 2 MB file
// in one call holds the loop for the whole file (a 20,000-line roster took 270 ms), and every other user waits.
import { Readable } from "node:stream";
import { setImmediate as nextTurn } from "node:timers/promises";

/** Bytes handed to the parser between turns of the event loop. */
const CHUNK_BYTES = 32 * 1024;

async function* inChunks(bytes: Buffer): AsyncGenerator<Buffer> {
  for (let offset = 0; offset < bytes.length; offset += CHUNK_BYTES) {
    yield bytes.subarray(offset, offset + CHUNK_BYTES);
    await nextTurn();
  }
}

/** A readable stream of `text`'s UTF-8 bytes, a chunk a turn, to pipe into a streaming parser. */
export function chunkedSource(text: string): Readable {
  return Readable.from(inChunks(Buffer.from(text, "utf8")));
}
