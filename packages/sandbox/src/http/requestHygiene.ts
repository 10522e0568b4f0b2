import type { IncomingMessage } from "node:http";
import type { Context, ErrorHandler, MiddlewareHandler, NotFoundHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { isDatabaseError } from "../db/databaseError.js";
import { ServiceError } from "../service/serviceError.js";
import { createBadRequestError, getErrorStatus } from "./apiError.js";
import { isStorableText } from "./isStorableText.js";

/** Largest request body accepted, bytes; a larger one is 400 `BODY_TOO_LARGE` and the connection is closed. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** How long an error answer waits for the rest of an unread body before closing the socket instead. */
const BODY_DRAIN_WAIT_MS = 1_000;

/** The peer's IP address; `in-process` for requests that did not come through a socket (`app.request`). */
export function clientAddress(c: Context): string {
  const env = c.env as { incoming?: IncomingMessage } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? "in-process";
}

/** Whether the request announces a body (a non-zero Content-Length, or chunked). */
function carriesBody(request: Request): boolean {
  const length = request.headers.get("content-length");
  return (length !== null && length !== "0") || request.headers.has("transfer-encoding");
}

/**
 * Read and drop what is left of a request's body; false when the client went away or the body did not arrive
 * within {@link BODY_DRAIN_WAIT_MS} (a client waiting for the answer before it sends the body is not held up).
 */
async function readRestOfBody(request: Request): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      request.arrayBuffer().then(
        () => true,
        () => false,
      ),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), BODY_DRAIN_WAIT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether the client went away before its request was answered (a disconnect mid-upload, say): its socket is gone.
 * Not the request's abort signal or `incoming.destroyed`: the adapter and node set those for every request whose
 * body was read to its end, so an internal error on any POST with a body passed for a client that went away.
 * In process (`app.fetch`, no socket) only the caller's signal says so.
 */
function clientAborted(c: Context): boolean {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming === undefined) return c.req.raw.signal.aborted;
  return incoming.socket?.destroyed === true || incoming.errored !== null;
}

/**
 * The app's error handler: a {@link ServiceError} becomes its `{code, message, entity, type}` body, with the status
 * its kind maps to (`getErrorStatus`), (with `Retry-After`
 * on 429); a request whose client went away is a 400 `CLIENT_ABORTED` and a log note; anything else is logged
 * (its message only) and answered 500 `INTERNAL`.
 */
export function createErrorHandler(log: (message: string) => void): ErrorHandler {
  return (error, c) => {
    if (error instanceof ServiceError) {
      const status = getErrorStatus(error);
      if (error.retryAfterSecs !== undefined) c.header("Retry-After", String(error.retryAfterSecs));
      return c.json(
        { code: status, message: error.shortMessage, entity: error.entity, type: error.code },
        status as ContentfulStatusCode,
      );
    }
    if (isDatabaseError(error, "SANDBOX_DATABASE_UNAVAILABLE")) {
      // The database is away (restarting, dropped): nothing was half-written (each write is one statement or one
      // transaction); the client may retry.
      c.header("Retry-After", "1");
      return c.json(
        {
          code: 503,
          message: "The database is unavailable; retry shortly.",
          entity: "Other",
          type: "SERVICE_UNAVAILABLE",
        },
        503,
      );
    }
    if (clientAborted(c)) {
      // Nobody is left to answer: not an internal error, just a note.
      log(`client went away during ${c.req.method} ${c.req.path}`);
      return c.json(
        { code: 400, message: "The client went away.", entity: "Other", type: "CLIENT_ABORTED" },
        400,
      );
    }
    log(
      `internal error on ${c.req.method} ${c.req.path}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return c.json({ code: 500, message: "Internal error.", entity: "Other", type: "INTERNAL" }, 500);
  };
}

/** The answer for a path no route serves: 404 `ROUTE_NOT_FOUND`. */
export const answerNoRoute: NotFoundHandler = (c) =>
  c.json(
    {
      code: 404,
      message: `No route ${c.req.method} ${c.req.path}.`,
      entity: "Other",
      type: "ROUTE_NOT_FOUND",
    },
    404,
  );

/**
 * An answer given before the request's body was read (401, 404, a bad id, 429...) would leave the rest of the
 * body on the socket, which the server then closes (bodies of a few hundred KiB and more): read it first, so a
 * keep-alive client's next request finds the socket alive. A body that cannot be read (chunked, announced over
 * the limit, or the client went away) gets `Connection: close` instead, as after BODY_TOO_LARGE.
 */
export const drainUnreadBody: MiddlewareHandler = async (c, next) => {
  await next();
  if (!carriesBody(c.req.raw) || c.req.raw.bodyUsed) return;
  const length = Number(c.req.header("content-length"));
  if (Number.isSafeInteger(length) && length <= MAX_BODY_BYTES && (await readRestOfBody(c.req.raw))) return;
  c.res.headers.set("Connection", "close");
};

/**
 * Bodies over {@link MAX_BODY_BYTES} are 400 `BODY_TOO_LARGE`. The rest of the body is never read, so the socket
 * cannot carry another request: the answer says so (`Connection: close`), and a keep-alive client then opens a new
 * socket instead of failing on a dead one.
 */
export const limitBodySize: MiddlewareHandler = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: (c) => {
    c.header("Connection", "close");
    return c.json(
      { code: 400, message: "The body is larger than 1 MiB.", entity: "Other", type: "BODY_TOO_LARGE" },
      400,
    );
  },
});

/** Query strings reach SQL (history filters): text the database cannot store is a 400 `INVALID_TEXT`, on every route. */
export const refuseUnstorableQuery: MiddlewareHandler = async (c, next) => {
  for (const [key, values] of Object.entries(c.req.queries()))
    if (!isStorableText(key) || !values.every(isStorableText))
      throw createBadRequestError(
        "INVALID_TEXT",
        "A query parameter holds a NUL character or an unpaired UTF-16 surrogate.",
        "Other",
      );
  await next();
};
