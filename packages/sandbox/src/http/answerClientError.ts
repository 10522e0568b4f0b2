import { type IncomingMessage, type ServerResponse, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";

/**
 * Largest request line plus headers accepted, bytes (node:http's `maxHeaderSize`; its default is 16 KiB).
 * 64 KiB holds a history query for about 900 Bitcoin wallets (`wallet=` + 62 characters each).
 */
export const MAX_HEADER_BYTES = 64 * 1024;

/**
 * Answer a request node:http refused before the app saw it (the server's `clientError` event) in the API's error
 * shape: request line or headers over {@link MAX_HEADER_BYTES} -> 431 `HEADERS_TOO_LARGE`, a header timeout ->
 * 408 `REQUEST_TIMEOUT`, anything else that is not HTTP/1.1 -> 400 `MALFORMED_REQUEST`; always with
 * `Connection: close`, since the parser cannot find where the next request starts. A reset socket is just closed.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  // node:http's own rule: write nothing once a response has started on this socket
  const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, type, message] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [
          431,
          "HEADERS_TOO_LARGE",
          `The request line and headers are larger than ${MAX_HEADER_BYTES / 1024} KiB.`,
        ]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "REQUEST_TIMEOUT", "The request did not arrive in time."]
        : [400, "MALFORMED_REQUEST", "The request is not valid HTTP/1.1."];
  const body = JSON.stringify({ code: status, message, entity: "Other", type });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      "Content-Type: application/json\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      "Access-Control-Allow-Origin: *\r\n" +
      "Connection: close\r\n\r\n" +
      body,
  );
}

/**
 * Answer a request that node:http parsed but the HTTP adapter could not turn into a URL (the listener's
 * `errorHandler`): `OPTIONS *`, a Host header that is not a host name, a backslash in the path. 400
 * `MALFORMED_REQUEST` in the API's error shape, like {@link answerClientError}.
 */
export function answerRequestError(): Response {
  return new Response(
    JSON.stringify({
      code: 400,
      message: "The request target or Host header is not a valid URL.",
      entity: "Other",
      type: "MALFORMED_REQUEST",
    }),
    { status: 400, headers: { "content-type": "application/json", "access-control-allow-origin": "*" } },
  );
}

/**
 * Answer a request whose `Expect` header is not `100-continue` (the server's `checkExpectation` event): 417
 * `EXPECTATION_FAILED` in the API's error shape, with `Connection: close` (its body is not read). node:http answered
 * it itself, with an empty body and no code.
 */
export function answerUnmetExpectation(_request: IncomingMessage, response: ServerResponse): void {
  const body = JSON.stringify({
    code: 417,
    message: "Only the Expect value 100-continue is supported.",
    entity: "Other",
    type: "EXPECTATION_FAILED",
  });
  response.shouldKeepAlive = false;
  response.writeHead(417, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
    "access-control-allow-origin": "*",
    connection: "close",
  });
  response.end(body);
}
