import { type ClientError, createClientError, type NetworkFailure } from "../errors/codes.js";

/** Each kind of failure and the runtime codes that mean it (Node's, undici's, OpenSSL's); the first match wins. */
const failures: Array<[NetworkFailure, RegExp]> = [
  ["refused", /REFUSED/],
  ["dns", /^E(NOTFOUND|AI_)/],
  ["tls", /TLS|SSL|CERT|^EPROTO$|^UNABLE_TO/],
  ["reset", /RESET|EPIPE|ABORTED|SOCKET|CLOSED/],
  ["timeout", /TIME/],
  ["unreachable", /UNREACH/],
];

/**
 * `NETWORK_ERROR` for a request that got no HTTP response: the message and details name the `origin` it went to
 * and why (from the first runtime code found on `cause`, its `cause`s or an `AggregateError`'s first error), as in
 * `GET /affiliate/v1/networks: network error (refused, http://127.0.0.1:9, ECONNREFUSED).` Only a code of capitals,
 * digits and `_` that is none of `secrets` is kept; never the cause's text (it may quote a URL).
 */
export function networkError(
  { method, path }: { method: string; path: string },
  origin: string,
  cause: unknown,
  secrets: readonly string[],
): ClientError<"NETWORK_ERROR"> {
  const code = findCode(cause, secrets);
  const failure = failures.find(([, pattern]) => code && pattern.test(code))?.[0] ?? "unknown";
  return createClientError(
    "NETWORK_ERROR",
    `${method} ${path}: network error (${failure}, ${origin}${code ? `, ${code}` : ""}).`,
    { method, path, origin, failure, ...(code && { causeCode: code }) },
    cause,
  );
}

function findCode(error: unknown, secrets: readonly string[]): string | undefined {
  try {
    for (let depth = 0; depth < 5 && typeof error === "object" && error; depth++) {
      const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
      if (typeof code === "string" && /^[A-Z][A-Z\d_]{1,39}$/.test(code))
        return secrets.some((secret) => secret.toUpperCase() === code) ? undefined : code;
      error = cause ?? (Array.isArray(errors) ? errors[0] : undefined);
    }
  } catch {
    // a cause whose getters throw tells nothing
  }
  return undefined;
}
