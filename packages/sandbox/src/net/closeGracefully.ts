import type { Server, ServerResponse } from "node:http";

/** How long {@link closeGracefully} waits for the requests in flight to be answered before it drops them, ms. */
export const CLOSE_GRACE_MS = 5_000;

/** The responses not yet finished, per server tracked by {@link trackRequestsInFlight}. */
const inFlight = new WeakMap<Server, Set<ServerResponse>>();

/**
 * Keep track of `server`'s responses in flight, for {@link closeGracefully}; once the server is closing, each
 * answer also ends its connection (a keep-alive one would otherwise hold the close up until it idles out).
 */
export function trackRequestsInFlight(server: Server): void {
  const open = new Set<ServerResponse>();
  inFlight.set(server, open);
  server.on("request", (_request, response: ServerResponse) => {
    if (!server.listening) response.setHeader("Connection", "close");
    open.add(response);
    response.once("close", () => open.delete(response));
  });
}

/**
 * Stop accepting connections, close the idle ones, let the requests in flight be answered (each answer says
 * `Connection: close`), then resolve; what is still open after {@link CLOSE_GRACE_MS} is dropped. What the server
 * fronts (legs, database, engine) closes after this, so a request in flight is answered with its outcome instead of
 * a dropped socket that leaves the client guessing.
 */
export function closeGracefully(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    for (const response of inFlight.get(server) ?? [])
      if (!response.headersSent) response.setHeader("Connection", "close");
    server.closeIdleConnections();
  });
}
