import { ServerResponse } from "node:http";

/** One response a `node:http` server of this process finished. */
export interface WatchedResponse {
  /** The port of the server that answered. */
  port: number | undefined;
  /** The request's path and query. */
  url: string;
  status: number;
  /** Whether the connection stays open for another request after it (false: the answer ends its connection). */
  keepAlive: boolean;
}

/** What {@link watchResponses} returns. */
export interface WatchResponsesReturnType {
  /** The responses finished since the watch began, in order. */
  sent: WatchedResponse[];
  /** Ends the watch. */
  stop: () => void;
}

/**
 * Records every response the `node:http` servers of this process finish from now on, and whether each one keeps its
 * connection alive: how a test tells that a server closing down ends each connection with its answer, instead of
 * waiting for the client to let an idle keep-alive socket go (a wait a test would otherwise have to time).
 *
 * @example
 * const responses = watchResponses();
 * await sandbox.close();
 * responses.stop();
 * // responses.sent: [{ port: 43121, url: "/affiliate/v1/intents/…/approvals", status: 200, keepAlive: false }]
 */
export function watchResponses(): WatchResponsesReturnType {
  const sent: WatchedResponse[] = [];
  const original = ServerResponse.prototype.end;
  ServerResponse.prototype.end = function (this: ServerResponse, ...args: unknown[]) {
    const result = (original as (...a: unknown[]) => ServerResponse).apply(this, args);
    const closes = String(this.getHeader("connection") ?? "").toLowerCase() === "close";
    sent.push({
      port: this.req?.socket?.localPort,
      url: this.req?.url ?? "",
      status: this.statusCode,
      keepAlive: this.shouldKeepAlive && !closes,
    });
    return result;
  } as typeof original;
  return {
    sent,
    stop: () => {
      ServerResponse.prototype.end = original;
    },
  };
}
