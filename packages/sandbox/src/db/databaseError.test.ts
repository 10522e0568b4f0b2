import { SwapIntentError } from "@swapintent/client";
import { describe, expect, test } from "vitest";
import { checkDatabaseUrl } from "./checkDatabaseUrl.js";
import { createDatabaseError, isDatabaseError, redactDatabaseUrl } from "./databaseError.js";
import { isConnectionLost, isRefused, PG_TYPES } from "./postgresConnection.js";

describe("isDatabaseError", () => {
  test("accepts exactly the database codes, and the one asked for", () => {
    const error = createDatabaseError("SANDBOX_DATABASE_UNAVAILABLE", "gone", { driverCode: "ECONNRESET" });
    expect(isDatabaseError(error)).toBe(true);
    expect(isDatabaseError(error, "SANDBOX_DATABASE_UNAVAILABLE")).toBe(true);
    expect(isDatabaseError(error, "SANDBOX_DATABASE_LOCKED")).toBe(false);
    // a swapintent error with a look-alike code (a prefix match would take it) and plain errors are not ours
    expect(isDatabaseError(new SwapIntentError("SANDBOX_DATABASE_SOMETHING_NEW", "x"))).toBe(false);
    expect(isDatabaseError(new Error("SANDBOX_DATABASE_UNAVAILABLE"))).toBe(false);
    expect(isDatabaseError({ code: "SANDBOX_DATABASE_UNAVAILABLE" })).toBe(false);
  });
});

describe("a database URL never shows its password", () => {
  test("redactDatabaseUrl hides the password and any query string (which may carry one)", () => {
    expect(redactDatabaseUrl("postgres://app:s3cret@db:5432/sandbox")).toBe(
      "postgres://app:***@db:5432/sandbox",
    );
    expect(redactDatabaseUrl("postgresql://app@db/sandbox?password=s3cret&sslmode=require")).toBe(
      "postgresql://app@db/sandbox?***",
    );
    expect(redactDatabaseUrl("postgres://app:s%40cret@db/sandbox")).not.toContain("cret");
    expect(redactDatabaseUrl("not a url s3cret")).toBe("(unparseable URL)");
    // everything after the path is dropped, a fragment too (a mistyped "#password=" must not be echoed)
    for (const url of [
      "postgres://app@db/sandbox#s3cret",
      "postgres://app@db/sandbox?#s3cret",
      "postgres://app:p@s3cret@db/x",
    ])
      expect(redactDatabaseUrl(url), url).not.toContain("s3cret");
  });

  test("checkDatabaseUrl refuses what is not a postgres URL, without repeating it", () => {
    for (const url of [
      "s3cret",
      "http://app:s3cret@db/sandbox",
      "postgres://app:s3cret@/sandbox",
      "postgres://app:s3cret@db:0/sandbox",
    ]) {
      const error = (() => {
        try {
          checkDatabaseUrl(url);
        } catch (e) {
          return e;
        }
      })();
      expect(isDatabaseError(error, "SANDBOX_DATABASE_URL_INVALID"), url).toBe(true);
      expect(`${(error as Error).message}${JSON.stringify(error)}`).not.toContain("s3cret");
    }
    expect(() => checkDatabaseUrl("postgres://app:s3cret@db:5432/sandbox")).not.toThrow();
    expect(() => checkDatabaseUrl("postgresql:///sandbox?host=/var/run/postgresql")).not.toThrow();
  });
});

describe("driver errors", () => {
  test("a lost connection is told from a failed statement and from a refusal", () => {
    const coded = (code: string, message = "x") => Object.assign(new Error(message), { code });
    for (const lost of [
      coded("ECONNREFUSED"),
      coded("ECONNRESET"),
      coded("57P01"),
      coded("08006"),
      new Error("Connection terminated unexpectedly"),
    ])
      expect(isConnectionLost(lost), lost.message).toBe(true);
    for (const statement of [coded("23505"), coded("42P01"), coded("28P01"), new Error("syntax")])
      expect(isConnectionLost(statement)).toBe(false);
    expect(isRefused(coded("28P01"))).toBe(true);
    expect(isRefused(coded("3D000"))).toBe(true);
    expect(isRefused(coded("ECONNREFUSED"))).toBe(false);
  });

  test("int8 parses as PGlite does: a number when safe, else a bigint; other types keep pg's parsers", () => {
    const parser = PG_TYPES.getTypeParser as (oid: number, format: "text") => (text: string) => unknown;
    const int8 = parser(20, "text");
    expect(int8("1700000000000")).toBe(1_700_000_000_000);
    expect(int8("9007199254740993")).toBe(9007199254740993n);
    expect(int8("-9007199254740993")).toBe(-9007199254740993n);
    const int8s = parser(1016, "text");
    expect(int8s("{1,9007199254740993,NULL}")).toEqual([1, 9007199254740993n, null]);
    const numeric = parser(1700, "text");
    expect(numeric("3.50")).toBe("3.50");
  });
});
