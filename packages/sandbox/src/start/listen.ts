import { createServer, type Server } from "node:http";
import { getRequestListener } from "@hono/node-server";
import type { Hono } from "hono";
import { answerClientError, answerRequestError, MAX_HEADER_BYTES } from "../http/answerClientError.js";

/**
 * How long a client may take to send a request line and headers, ms (node's default: 60 s). Past it: 408
 * `REQUEST_TIMEOUT` and the socket is closed; so is a connection that sends nothing (an idle keep-alive socket
 * between requests is closed by node's 5 s keep-alive timeout instead).
 */
export const HEADERS_TIMEOUT_MS = 10_000;
/**
 * How long a client may take to send a whole request, headers and body, ms (node's default: 300 s). The sandbox
 * serves 127.0.0.1, where a 1 MiB body arrives in milliseconds: a slower one is a client that drips it (slowloris)
 * or hangs. Past it: 408 `REQUEST_TIMEOUT`. The time the app takes to answer is not counted.
 */
export const REQUEST_TIMEOUT_MS = 15_000;
/** How often node checks those two deadlines, ms (its default is 30 s, which would add up to 30 s to each). */
const TIMEOUT_CHECK_INTERVAL_MS = 500;

/**
 * Serve `app` on 127.0.0.1:`port` (0 picks a free one); resolves once the server listens. A request the adapter
 * cannot turn into a URL (`OPTIONS *`, a Host header that is not a host) gets the API's JSON error too; a request
 * without Host (HTTP/1.0 style) is served as if sent to 127.0.0.1. Slow clients are cut off after
 * {@link HEADERS_TIMEOUT_MS} (headers) and {@link REQUEST_TIMEOUT_MS} (the whole request).
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
        headersTimeout: HEADERS_TIMEOUT_MS,
        requestTimeout: REQUEST_TIMEOUT_MS,
        connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
      },
      listener,
    );
    s.once("error", reject);
    s.on("clientError", answerClientError);
    s.listen(port, "127.0.0.1", () => resolve(s));
  });
}

/** Stop accepting connections and close the open ones. */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
