/**
 * What memos a cosign may carry: exactly one, `swapintent:<intent_id>:<secret_hash>`, the one the service documents.
 * Any other memo is refused, however its text reads (a wallet would show it, and the chain records it as the
 * user's): "refund waived", a stranger's name, a second copy of the intent's own memo, on either memo program.
 */
import { AccountRole, address, type Instruction } from "@solana/kit";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type Chain,
  codeOf,
  compileHex,
  createChain,
  honestInstructions,
  INTENT_ID,
  memoInstruction,
  SECRET_HASH,
  verifyParams,
} from "../test/fixture.js";
import { everyPathRefusal } from "../test/paths.js";
import { SOLANA_PROGRAM_ADDRESSES } from "./constants.js";
import { verifyCosignTransaction } from "./verifyCosignTransaction.js";

let chain: Chain;
beforeAll(async () => {
  chain = await createChain();
});

const memoV1 = (text: string): Instruction => ({
  programAddress: address(SOLANA_PROGRAM_ADDRESSES.memoV1),
  accounts: [],
  data: new TextEncoder().encode(text),
});

/** The honest transaction with `extra` appended after its memo. */
const withMemos = (...extra: Instruction[]) => compileHex(chain, [...honestInstructions(chain), ...extra]);

describe("a cosign carries the intent's memo and no other", () => {
  const foreign: [string, () => string][] = [
    [
      "a safe-text memo after the intent's",
      () =>
        withMemos(memoInstruction("refund waived; proceeds to 7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU")),
    ],
    ["the same text on Memo v1", () => withMemos(memoV1("refund waived"))],
    ["the intent's memo twice", () => withMemos(memoInstruction())],
    [
      "the intent's memo on v1 beside the one on v2",
      () => withMemos(memoV1(`swapintent:${INTENT_ID}:${SECRET_HASH}`)),
    ],
    ["an empty memo", () => withMemos(memoInstruction(""))],
  ];

  it.each(foreign)("%s -> SOL_MEMO_MISMATCH on every path, before any key is asked", async (_name, hex) => {
    const outcomes = await everyPathRefusal(verifyParams(chain, hex()));
    for (const outcome of Object.values(outcomes))
      expect(outcome).toEqual({ code: "SOL_MEMO_MISMATCH", signerCalls: 0 });
  });

  it("checkMemo: false lets the intent's memo be absent, never lets another one in", () => {
    const [create, transfer] = honestInstructions(chain);
    const none = compileHex(chain, [create!, transfer!]);
    expect(verifyCosignTransaction(verifyParams(chain, none, { checkMemo: false })).memos).toEqual([]);
    expect(codeOf(() => verifyCosignTransaction(verifyParams(chain, none)))).toBe("SOL_MEMO_MISMATCH");
    const stranger = compileHex(chain, [create!, transfer!, memoInstruction("refund waived")]);
    expect(codeOf(() => verifyCosignTransaction(verifyParams(chain, stranger, { checkMemo: false })))).toBe(
      "SOL_MEMO_MISMATCH",
    );
  });

  it("the intent's memo alone is accepted and shown", () => {
    expect(verifyCosignTransaction(verifyParams(chain, withMemos())).memos).toEqual([
      `swapintent:${INTENT_ID}:${SECRET_HASH}`,
    ]);
  });
});

describe("no memo the verifier cannot read", () => {
  it("a caller-allowed program or a token transfer handed a memo program (it could write a memo by itself) is refused", async () => {
    const [create, transfer, memo] = honestInstructions(chain);
    for (const memoProgram of [SOLANA_PROGRAM_ADDRESSES.memo, SOLANA_PROGRAM_ADDRESSES.memoV1]) {
      const handed = { address: address(memoProgram), role: AccountRole.READONLY };
      const opaque: Instruction = {
        programAddress: chain.stranger,
        accounts: [handed],
        data: new Uint8Array([1]),
      };
      const viaOpaque = compileHex(chain, [create!, transfer!, opaque, memo!]);
      const viaHook = compileHex(chain, [
        create!,
        { ...transfer!, accounts: [...transfer!.accounts!, handed] },
        memo!,
      ]);
      for (const hex of [viaOpaque, viaHook]) {
        const outcomes = await everyPathRefusal(
          verifyParams(chain, hex, { allowedPrograms: [chain.stranger] }),
        );
        for (const outcome of Object.values(outcomes))
          expect(outcome, memoProgram).toEqual({ code: "SOL_MEMO_MISMATCH", signerCalls: 0 });
      }
    }
  });
});
