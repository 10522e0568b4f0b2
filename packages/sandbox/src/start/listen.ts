import { createServer, type Server } from "node:http";
import { getRequestListener } from "@hono/node-server";
import type { Hono } from "hono";
import {
  answerClientError,
  answerRequestError,
  answerUnmetExpectation,
  MAX_HEADER_BYTES,
} from "../http/answerClientError.js";
import { closeGracefully, trackRequestsInFlight } from "../net/closeGracefully.js";
import { SLOW_CLIENT_TIMEOUTS } from "../net/slowClientTimeouts.js";

/**
 * Serve `app` on 127.0.0.1:`port` (0 picks a free one); resolves once the server listens. A request the adapter
 * cannot turn into a URL (`OPTIONS *`, a Host header that is not a host) gets the API's JSON error too; a request
 * without Host (HTTP/1.0 style) is served as if sent to 127.0.0.1. Slow clients are cut off with a 408
 * `REQUEST_TIMEOUT` ({@link SLOW_CLIENT_TIMEOUTS}); an `Expect` other than 100-continue a 417 `EXPECTATION_FAILED`.
 */
export async function listen(app: Hono, port: number): Promise<Server> {
  const listener = getRequestListener(app.fetch, {
    hostname: "127.0.0.1",
    errorHandler: answerRequestError,
  });
  return new Promise<Server>((resolve, reject) => {
    const s = createServer(
      {
        maxHeaderSize: MAX_HEADER_BYTES,
        requireHostHeader: false,
        ...SLOW_CLIENT_TIMEOUTS,
      },
      listener,
    );
    trackRequestsInFlight(s);
    s.once("error", reject);
    s.on("clientError", answerClientError);
    s.on("checkExpectation", answerUnmetExpectation);
    s.listen(port, "127.0.0.1", () => resolve(s));
  });
}

/** Stop serving: the requests in flight are answered first (see {@link closeGracefully}). */
export function closeServer(server: Server): Promise<void> {
  return closeGracefully(server);
}
