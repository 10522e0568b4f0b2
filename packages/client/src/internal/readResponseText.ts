import { type ClientError, type ClientErrorDetails, clientError } from "../errors/codes.js";

/**
 * Reads a response body as UTF-8 text, at most `maxBytes` of it. A `content-length` above the limit is refused
 * before reading; a body that grows past it is cancelled as soon as it does, so an oversized answer never sits
 * whole in memory. When `signal` aborts, the body is cancelled too (a body that ignores the fetch's signal would
 * otherwise stay open).
 *
 * @throws `RESPONSE_TOO_LARGE` when the body is longer than `maxBytes`.
 */
export async function readResponseText(
  response: Response,
  maxBytes: number,
  request: { method: string; path: string },
  signal: AbortSignal,
): Promise<string> {
  const tooLarge = (receivedBytes: number, body: { cancel(): Promise<void> } | null) => {
    discardBody(body);
    return callError("RESPONSE_TOO_LARGE", request, {
      status: response.status,
      maxResponseBytes: maxBytes,
      receivedBytes,
    });
  };
  const declared = Number(response.headers.get("content-length")); // absent: 0, not a number: NaN
  if (declared > maxBytes) throw tooLarge(declared, response.body);
  const body = response.body;
  if (!body) return response.text();
  const reader = body.getReader();
  signal.addEventListener("abort", () => discardBody(reader));
  // streamed decoding: a character split across two chunks is held back until its last byte arrives
  const decoder = new TextDecoder();
  let text = "";
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    total += value.byteLength;
    if (total > maxBytes) throw tooLarge(total, reader);
    text += decoder.decode(value, { stream: true });
  }
}

/**
 * Cancels a body (or its reader) that will not be read, without waiting: a hostile stream's cancel may never
 * settle. A failure to cancel is of no interest.
 */
export function discardBody(body: { cancel(): Promise<void> } | null): void {
  body?.cancel().catch(() => {});
}

/** A transport error of one call: its details hold the request's method and path (its message starts with them). */
export function callError<C extends "TIMEOUT" | "REDIRECT_REFUSED" | "RESPONSE_TOO_LARGE">(
  code: C,
  { method, path }: { method: string; path: string },
  details: Omit<ClientErrorDetails[C], "method" | "path">,
  cause?: unknown,
): ClientError<C> {
  return clientError(code, { method, path, ...details } as ClientErrorDetails[C], cause);
}
