/** What `pnpm demo` prints when it cannot run: what went wrong, and what to do about it. */
export interface Failure {
  /** One line: what went wrong (the error's own message, its causes' codes). */
  problem: string;
  /** One line: what to do. */
  hint: string;
}

const FILE_SYSTEM_CODES = new Set(["EACCES", "EPERM", "EROFS", "ENOSPC", "EDQUOT", "ENOTDIR", "EEXIST"]);
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
]);

/** The chain of `cause`s, the error first (at most 8 deep). */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e: unknown = error; e !== undefined && e !== null && chain.length < 8; ) {
    chain.push(e);
    e = typeof e === "object" ? (e as { cause?: unknown }).cause : undefined;
  }
  return chain;
}

function field(error: unknown, name: "code" | "path" | "message" | "shortMessage"): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const value = (error as Record<string, unknown>)[name];
  return typeof value === "string" ? value : undefined;
}

/**
 * Turns any error that ends the demo into one line of problem and one line of hint, never a stack: the file the
 * sandbox could not write (the compiler cache or the data folder: disk full, read-only, permissions), a service the
 * demo could not reach, or else the error's message with what to check.
 */
export function describeFailure({
  error,
  baseUrl,
}: {
  error: unknown;
  baseUrl: string | undefined;
}): Failure {
  const chain = causes(error);
  const first = chain[0];
  const message = field(first, "shortMessage") ?? field(first, "message")?.split("\n")[0] ?? String(first);
  const fsError = chain.find((e) => FILE_SYSTEM_CODES.has(field(e, "code") ?? "") && field(e, "path"));
  if (fsError) {
    const path = field(fsError, "path")!;
    const code = field(fsError, "code")!;
    return {
      problem: `cannot write ${path} (${code})`,
      hint:
        code === "ENOSPC" || code === "EDQUOT"
          ? "free some disk space, or set SWAPINTENT_CACHE_DIR to a folder on another disk, and run it again"
          : "make that folder writable, or set SWAPINTENT_CACHE_DIR to a writable folder, and run it again",
    };
  }
  const connection = chain.map((e) => field(e, "code")).find((code) => CONNECTION_CODES.has(code ?? ""));
  if (connection && baseUrl !== undefined) {
    return {
      problem: `${message} (${connection})`,
      hint: `check that the service at --base-url ${baseUrl} is up and reachable, or leave out --base-url to run the embedded sandbox`,
    };
  }
  const detail = chain
    .slice(1)
    .map((e) => field(e, "code") ?? field(e, "message")?.split("\n")[0])
    .filter((part): part is string => Boolean(part));
  return {
    problem: detail.length > 0 ? `${message} (${detail.join(": ")})` : message,
    hint: "check the message above; `pnpm demo --help` lists the options and environment variables",
  };
}
