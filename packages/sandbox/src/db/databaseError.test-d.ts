import { expectTypeOf, test } from "vitest";
import { type DatabaseError, type DatabaseErrorCode, isDatabaseError } from "./databaseError.js";

test("the guard with a code narrows details to that code's facts", () => {
  const error: unknown = undefined;
  if (isDatabaseError(error, "SANDBOX_DATABASE_UNREACHABLE")) {
    expectTypeOf(error.code).toEqualTypeOf<"SANDBOX_DATABASE_UNREACHABLE">();
    expectTypeOf(error.details.attempts).toEqualTypeOf<number>();
    expectTypeOf(error.details.lastErrorCode).toEqualTypeOf<string>();
  }
  if (isDatabaseError(error, "SANDBOX_DATABASE_LOCKED")) {
    expectTypeOf(error.details.holder).toEqualTypeOf<string | null>();
    expectTypeOf(error.details.waitedSecs).toEqualTypeOf<number>();
    // @ts-expect-error: a LOCKED error carries no sqlState
    void error.details.sqlState;
  }
});

test("without a code, switching on code narrows details", () => {
  const error: unknown = undefined;
  if (!isDatabaseError(error)) return;
  expectTypeOf(error.code).toEqualTypeOf<DatabaseErrorCode>();
  switch (error.code) {
    case "SANDBOX_DATABASE_REFUSED":
      expectTypeOf(error.details.sqlState).toEqualTypeOf<string>();
      break;
    case "SANDBOX_DATABASE_UNAVAILABLE":
      expectTypeOf(error.details.driverCode).toEqualTypeOf<string>();
      break;
    case "SANDBOX_DATABASE_URL_INVALID":
      expectTypeOf(error.details.reason).toEqualTypeOf<string>();
      break;
  }
  expectTypeOf<DatabaseError<"SANDBOX_DATABASE_URL_INVALID">["details"]>().toEqualTypeOf<
    Readonly<{ reason: string }>
  >();
});
