/**
 * The benchmark's HTTP client: keep-alive requests to the sandbox on 127.0.0.1, timed. Shared by the load
 * processes (loadgen.ts, usersLoad.ts), which run apart from the sandbox so the load does not share its event loop.
 */
import { Agent, request as httpRequest } from "node:http";

/** One answer: its status, its body text and how long it took, ms. */
export interface TimedResponse {
  status: number;
  text: string;
  ms: number;
}

/** A keep-alive client for one sandbox. */
export interface HttpClient {
  /** Send one request (`body` is sent as JSON, or as is when it is a string); rejects only on a socket error. */
  call(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<TimedResponse>;
  /** Close the client's sockets. */
  close(): void;
}

/** Create a client that talks to `127.0.0.1:port` over at most `maxSockets` keep-alive connections, as the `bench` key. */
export function createHttpClient({ port, maxSockets }: { port: number; maxSockets: number }): HttpClient {
  const agent = new Agent({ keepAlive: true, maxSockets });
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const payload =
      body === undefined ? undefined : Buffer.from(typeof body === "string" ? body : JSON.stringify(body));
    const started = performance.now();
    return new Promise<TimedResponse>((resolve, reject) => {
      const req = httpRequest(
        {
          host: "127.0.0.1",
          port,
          path,
          method,
          agent,
          headers: {
            "x-api-key": "bench",
            ...(payload ? { "content-type": "application/json", "content-length": payload.length } : {}),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              text: Buffer.concat(chunks).toString(),
              ms: performance.now() - started,
            }),
          );
        },
      );
      req.on("error", reject);
      if (payload) req.write(payload);
      req.end();
    });
  };
  return { call, close: () => agent.destroy() };
}

/** The `p` quantile (0..1) of latencies sorted ascending; 0 for none. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}
