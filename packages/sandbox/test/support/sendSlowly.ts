import { connect } from "node:net";

/** What a slow client got: the server's answer and when the socket closed, or "held" when it never did. */
export type SlowClientOutcome = { answer: string; afterMs: number } | "held";

/**
 * Be a slow client (slowloris) of 127.0.0.1:`port`: send `head`, then one character of `drip` every `everyMs` (none
 * when empty) until the server closes the socket; resolves with what it answered and when (ms after the first
 * byte), or "held" once `giveUpMs` passed with the socket still open.
 */
export function sendSlowly({
  port,
  head,
  drip,
  everyMs = 200,
  giveUpMs,
}: {
  port: number;
  head: string;
  drip: string;
  everyMs?: number;
  giveUpMs: number;
}): Promise<SlowClientOutcome> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    let at = 0;
    const timer = setInterval(() => drip !== "" && socket.write(drip[at++ % drip.length]!), everyMs);
    const giveUp = setTimeout(() => finish("held"), giveUpMs);
    function finish(result: SlowClientOutcome) {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve(result);
    }
    socket.on("data", (chunk) => {
      answer += chunk.toString();
    });
    socket.on("error", () => {});
    socket.on("close", () => finish({ answer, afterMs: Date.now() - started }));
    socket.write(head);
  });
}
