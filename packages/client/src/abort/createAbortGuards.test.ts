import { describe, expect, it } from "vitest";
import { type AbortStage, createAbortGuards } from "./createAbortGuards.js";

class Invalid extends Error {}
class Aborted extends Error {
  constructor(
    readonly stage: AbortStage,
    readonly reason: unknown,
  ) {
    super("aborted");
  }
}
class Failed extends Error {
  constructor(
    readonly source: string,
    override readonly cause: unknown,
  ) {
    super("failed");
  }
}

const errors = {
  invalidSignalError: () => new Invalid(),
  abortedError: ({ stage, reason }: { stage: AbortStage; reason: unknown }) => new Aborted(stage, reason),
};
const plain = createAbortGuards(errors);
const wrapping = createAbortGuards({
  ...errors,
  failedError: ({ source, cause }) => new Failed(source, cause),
});

describe("createAbortGuards", () => {
  it("checkSignal refuses what is no AbortSignal with the package's error, before reading it", () => {
    for (const signal of [null, 0, "abort", {}, { aborted: true }])
      expect(() => plain.checkSignal(signal)).toThrow(Invalid);
    expect(() => plain.checkSignal(undefined)).not.toThrow();
    expect(() => plain.checkSignal(new AbortController().signal)).not.toThrow();
  });

  it("checkSignal and throwIfAborted refuse an aborted signal at their stage, with the reason", () => {
    const reason = new Error("gone");
    const signal = AbortSignal.abort(reason);
    expect(() => plain.checkSignal(signal)).toThrow(
      expect.objectContaining({ stage: "beforeSigning", reason }),
    );
    expect(() => plain.throwIfAborted(signal, "whileSigning")).toThrow(
      expect.objectContaining({ stage: "whileSigning", reason }),
    );
    expect(() => plain.throwIfAborted(undefined, "whileSigning")).not.toThrow();
  });

  it("untilAborted: the answer, or the abort at whileSigning once asked, beforeSigning when never asked", async () => {
    expect(await plain.untilAborted(undefined, () => "signed")).toBe("signed");
    const controller = new AbortController();
    const asked = plain.untilAborted(controller.signal, () => new Promise<string>(() => {}));
    controller.abort("left");
    await expect(asked).rejects.toEqual(new Aborted("whileSigning", "left"));
    let called = false;
    const never = plain.untilAborted(AbortSignal.abort("early"), () => {
      called = true;
      return "signed";
    });
    await expect(never).rejects.toMatchObject({ stage: "beforeSigning", reason: "early" });
    expect(called).toBe(false);
  });

  it("without failedError a wallet's failure is passed on as is; with it, every failure is wrapped, the abort never", async () => {
    const crash = new Error("crash");
    await expect(plain.untilAborted(undefined, () => Promise.reject(crash))).rejects.toBe(crash);
    for (const thrown of [crash, undefined, new Aborted("whileSigning", "forged")]) {
      const failure = await wrapping
        .untilAborted(undefined, () => Promise.reject(thrown), "Kit signer")
        .catch((e) => e);
      expect(failure).toBeInstanceOf(Failed);
      expect(failure).toMatchObject({ source: "Kit signer", cause: thrown });
    }
    const defaultSource = await wrapping.untilAborted(undefined, () => Promise.reject(crash)).catch((e) => e);
    expect(defaultSource).toMatchObject({ source: "wallet", cause: crash });
    const controller = new AbortController();
    const asked = wrapping.untilAborted(controller.signal, () => new Promise<string>(() => {}), "wallet");
    controller.abort("left");
    await expect(asked).rejects.toEqual(new Aborted("whileSigning", "left"));
  });
});
