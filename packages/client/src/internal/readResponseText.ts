import { createClientError } from "../errors/codes.js";

/**
 * Reads a response body as UTF-8 text, at most `maxBytes` of it. A `content-length` above the limit is refused
 * before reading; a body that grows past it is cancelled as soon as it does, so an oversized answer never sits
 * whole in memory.
 *
 * @throws `RESPONSE_TOO_LARGE` when the body is longer than `maxBytes`.
 */
export async function readResponseText(
  response: Response,
  { maxBytes, method, path }: { maxBytes: number; method: string; path: string },
): Promise<string> {
  const tooLarge = (receivedBytes: number) =>
    createClientError("RESPONSE_TOO_LARGE", `${method} ${path}: body above ${maxBytes} bytes.`, {
      method,
      path,
      status: response.status,
      maxResponseBytes: maxBytes,
      receivedBytes,
    });
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge(declared);
  }
  const body = response.body;
  if (!body) return response.text();
  const reader = body.getReader();
  // streamed decoding: a character split across two chunks is held back until its last byte arrives
  const decoder = new TextDecoder();
  let text = "";
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(total);
    }
    text += decoder.decode(value, { stream: true });
  }
}
