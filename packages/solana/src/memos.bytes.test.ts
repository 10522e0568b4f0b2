import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type Chain,
  codeOf,
  compileHex,
  createChain,
  honestInstructions,
  intentFor,
  memoInstruction,
} from "../test/fixture.js";
import { transactionTools } from "../test/transactionTools.js";
import { verifyCosignTransaction } from "./verifyCosignTransaction.js";

let chain: Chain;
beforeAll(async () => {
  chain = await createChain();
});
beforeEach(() => chain.svm.expireBlockhash());

const { params, signRefusalUnquoted } = transactionTools(() => chain);

describe("the memo is compared as the exact bytes the chain records", () => {
  const expected = () => {
    const intent = intentFor("00");
    return `swapintent:${intent.intentId}:${intent.secretHash}`;
  };
  const withMemo = (data: Uint8Array) => {
    const [create, transfer] = honestInstructions(chain);
    return compileHex(chain, [create!, transfer!, { ...memoInstruction(), data }]);
  };
  const utf8 = (text: string) => new TextEncoder().encode(text);

  it("refuses a memo with a byte-order mark before any key is used", async () => {
    const hex = withMemo(Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8(expected())]));
    expect(codeOf(() => verifyCosignTransaction(params(hex)))).toBe("SOL_MEMO_UNSAFE_TEXT");
    expect(await signRefusalUnquoted(hex)).toEqual({ code: "SOL_MEMO_UNSAFE_TEXT", signerCalls: 0 });
  });

  it("refuses a memo that differs only in case or a trailing space (no folding)", () => {
    for (const text of [
      expected().toUpperCase(),
      `${expected()} `,
      expected().replace("swapintent", "SwapIntent"),
    ]) {
      expect(codeOf(() => verifyCosignTransaction(params(withMemo(utf8(text)))))).toBe("SOL_MEMO_MISMATCH");
    }
    expect(verifyCosignTransaction(params(withMemo(utf8(expected())))).memos).toEqual([expected()]);
  });

  it("refuses invalid UTF-8 (no replacement characters) with SOL_MEMO_NOT_UTF8", async () => {
    const hex = withMemo(Uint8Array.from([...utf8(expected()), 0xff]));
    expect(codeOf(() => verifyCosignTransaction(params(hex)))).toBe("SOL_MEMO_NOT_UTF8");
    const overlong = withMemo(Uint8Array.from([...utf8(expected()), 0xc0, 0xaf]));
    expect(codeOf(() => verifyCosignTransaction(params(overlong)))).toBe("SOL_MEMO_NOT_UTF8");
    expect(await signRefusalUnquoted(hex)).toEqual({ code: "SOL_MEMO_NOT_UTF8", signerCalls: 0 });
  });

  it("refuses a second memo with a line break, a bidi override or a zero-width space (it is a displayed field)", () => {
    const [create, transfer, memo] = honestInstructions(chain);
    for (const text of [
      "ok\nValid until 2099",
      "pay \u202Eevil",
      "zero\u200Bwidth",
      "nul\u0000",
      "sep\u2028",
    ]) {
      const hex = compileHex(chain, [create!, transfer!, memo!, memoInstruction(text)]);
      expect(
        codeOf(() => verifyCosignTransaction(params(hex))),
        JSON.stringify(text),
      ).toBe("SOL_MEMO_UNSAFE_TEXT");
    }
  });

  it("refuses the intent's own memo when its id holds a character that displays as nothing (a filler, a joiner, a selector)", async () => {
    const [create, transfer] = honestInstructions(chain);
    for (const invisible of [
      "\u3164",
      "\u115F",
      "\uFFA0",
      "\u034F",
      "\uFE0F",
      "\u{E0100}",
      "\u180B",
      "\u2800",
    ]) {
      const intentId = `2f1c7f6e${invisible}-3d0b`;
      const hex = compileHex(chain, [
        create!,
        transfer!,
        memoInstruction(`swapintent:${intentId}:${intentFor("00").secretHash}`),
      ]);
      const intent = { ...intentFor(hex), intentId };
      expect(
        codeOf(() => verifyCosignTransaction(params(hex, { intent }))),
        JSON.stringify(invisible),
      ).toBe("SOL_MEMO_UNSAFE_TEXT");
    }
    const intentId = "2f1c7f6e\u3164-3d0b";
    const hex = compileHex(chain, [
      create!,
      transfer!,
      memoInstruction(`swapintent:${intentId}:${intentFor("00").secretHash}`),
    ]);
    expect(await signRefusalUnquoted(hex, { intent: { ...intentFor(hex), intentId } })).toEqual({
      code: "SOL_MEMO_UNSAFE_TEXT",
      signerCalls: 0,
    });
  });
});
