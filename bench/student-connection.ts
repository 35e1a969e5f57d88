// The benchmarks' HTTP client: one student's keep-alive connection, as a browser holds one per page.
import net from "node:net";

export interface Reply {
  status: number;
  text: string;
}

/**
 * One student's keep-alive HTTP/1.1 connection, one request at a time. The load generator shares the machine's
 * two cores with the server and its database, so it is as lean as a wrk-style client: it writes each request in
 * one piece and reads the response by its Content-Length (the API always sends one). Node's http client took
 * over three times as much CPU per request (perf: 17.6% of the machine at ~1,300 requests/s, against 7.4% at
 * ~2,050), all of it taken from the product being measured.
 *
 * A connection the server closed while idle is opened again on the next request, as a browser does; one that
 * drops during a request fails that request ("connection closed"), and the caller decides whether to retry.
 */
export class StudentConnection {
  private readonly host: string;
  private readonly port: number;
  private socket: net.Socket | undefined;
  private received: Buffer = Buffer.alloc(0);
  private waiting: { resolve: (reply: Reply) => void; reject: (error: Error) => void } | undefined;

  constructor(host: string, port: number) {
    this.host = host;
    this.port = port;
  }

  private open(): net.Socket {
    const socket = net.connect({ host: this.host, port: this.port, noDelay: true });
    this.received = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      this.received = this.received.length ? Buffer.concat([this.received, chunk]) : chunk;
      this.settle();
    });
    const fail = (error: Error) => {
      // A connection already replaced by a newer one has no request waiting on it.
      if (this.socket !== socket) return;
      this.socket = undefined;
      const waiting = this.waiting;
      this.waiting = undefined;
      waiting?.reject(error);
    };
    socket.on("error", fail);
    socket.on("close", () => fail(new Error("connection closed")));
    return socket;
  }

  private settle() {
    const headerEnd = this.received.indexOf("\r\n\r\n");
    if (headerEnd < 0 || !this.waiting) return;
    const head = this.received.toString("latin1", 0, headerEnd);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? Number.NaN);
    if (Number.isNaN(length)) {
      const { reject } = this.waiting;
      this.waiting = undefined;
      reject(new Error(`response without Content-Length: ${head.split("\r\n")[0]}`));
      this.close();
      return;
    }
    const bodyStart = headerEnd + 4;
    if (this.received.length < bodyStart + length) return;
    const text = this.received.toString("utf8", bodyStart, bodyStart + length);
    this.received = this.received.subarray(bodyStart + length);
    const { resolve } = this.waiting;
    this.waiting = undefined;
    resolve({ status: Number(head.slice(9, 12)), text });
  }

  send(method: string, url: string, token?: string, body?: unknown): Promise<Reply> {
    const payload = body === undefined ? "" : JSON.stringify(body);
    const request =
      `${method} ${url} HTTP/1.1\r\nhost: ${this.host}\r\n` +
      (token ? `authorization: Bearer ${token}\r\n` : "") +
      (body === undefined
        ? ""
        : `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(payload)}\r\n`) +
      `\r\n${payload}`;
    this.socket ??= this.open();
    const socket = this.socket;
    return new Promise<Reply>((resolve, reject) => {
      this.waiting = { resolve, reject };
      socket.write(request);
    });
  }

  /** Drops the connection; the next request opens a new one. */
  close() {
    const socket = this.socket;
    const waiting = this.waiting;
    this.socket = undefined;
    this.waiting = undefined;
    waiting?.reject(new Error("connection closed"));
    socket?.destroy();
  }
}

/** The request as the figures group it: method, path with ids as `:id`, and the status or failure. */
export function requestKey(method: string, url: string, outcome: string | number): string {
  return `${method} ${url.replace(/[0-9a-f-]{36}/g, ":id").split("?")[0]} → ${outcome}`;
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** The questions as a student's client sees them, and what they answer. */
export interface ServedQuestion {
  _id: string;
  options: { _id: string }[];
}

/** What starting the quiz answers, as far as a bench student reads it. */
export interface StartedQuiz {
  totalQuestions: number;
  question: ServedQuestion | null;
  /** The open section's first position and the one after its last (0 and totalQuestions without section clocks). */
  sectionFirst: number;
  sectionEnd: number;
}

/**
 * The option a bench student picks: the one at `(student + position) % options` in the order the server served
 * them. The server stores that order, so a query can work out every expected answer without the client's word.
 */
export function pickedOption(question: ServedQuestion, student: number, position: number): string {
  const option = question.options[(student + position) % question.options.length];
  if (!option) throw new Error(`question ${question._id} was served without options`);
  return option._id;
}
