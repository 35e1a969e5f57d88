// A real SMTP server for tests that e-mail (smtp-server, on a free local port): the product's own mailer talks to
// it as to any mail server, and each message arrives here whole, headers and body, as the server received it.
import { SMTPServer } from "smtp-server";

export interface SmtpSink {
  /** The SMTP_URL that reaches it. */
  url: string;
  /** Every message received, in order. */
  received: string[];
  close(): Promise<void>;
}

/** `refuses`: recipients refused as a real server refuses an unknown user (550, the address quoted). */
export async function startSmtpSink(refuses: (address: string) => boolean = () => false): Promise<SmtpSink> {
  const received: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!refuses(address.address)) return callback();
      const error = new Error(`5.1.1 <${address.address}>: Recipient address rejected: User unknown`) as Error & {
        responseCode: number;
      };
      error.responseCode = 550;
      callback(error);
    },
    onData(stream, _session, callback) {
      let message = "";
      stream.on("data", (chunk: Buffer) => (message += chunk.toString()));
      stream.on("end", () => {
        received.push(message);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
