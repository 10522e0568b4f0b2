/**
 * How long a client may take to send a request line and headers, ms (node's default: 60 s). Past it: 408 and the
 * socket is closed; so is a connection that sends nothing (an idle keep-alive socket between requests is closed by
 * node's 5 s keep-alive timeout instead).
 */
export const HEADERS_TIMEOUT_MS = 10_000;
/**
 * How long a client may take to send a whole request, headers and body, ms (node's default: 300 s). The sandbox's
 * servers listen on 127.0.0.1, where a body of a few MiB arrives in milliseconds: a slower one is a client that
 * drips it (slowloris) or hangs. Past it: 408. The time the server takes to answer is not counted.
 */
export const REQUEST_TIMEOUT_MS = 15_000;

/**
 * The `node:http` server options that cut slow clients off after {@link HEADERS_TIMEOUT_MS} and
 * {@link REQUEST_TIMEOUT_MS}, checked every 500 ms (node's default check interval, 30 s, would add up to 30 s to each).
 */
export const SLOW_CLIENT_TIMEOUTS = {
  headersTimeout: HEADERS_TIMEOUT_MS,
  requestTimeout: REQUEST_TIMEOUT_MS,
  connectionsCheckingInterval: 500,
} as const;
