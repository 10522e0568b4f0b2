import { describe, expect, it } from "vitest";
import { SOLANA_PROGRAM_ADDRESSES } from "../constants.js";
import { decodeAssociatedTokenInstruction } from "./decodeAssociatedTokenInstruction.js";
import { decodeSystemInstruction } from "./decodeSystemInstruction.js";
import { decodeTokenInstruction } from "./decodeTokenInstruction.js";
import { bytesToHex, hexToBytes } from "./hex.js";

const USER = "UserWa11et1111111111111111111111111111111111";
const OTHER = "0therAccount1111111111111111111111111111111";
const SYSTEM = "11111111111111111111111111111111";

function u32(n: number): number[] {
  return [n & 255, (n >> 8) & 255, (n >> 16) & 255, (n >>> 24) & 255];
}
function u64(n: bigint): number[] {
  return Array.from({ length: 8 }, (_, i) => Number((n >> BigInt(8 * i)) & 255n));
}
const system = (accounts: string[], data: number[]) =>
  decodeSystemInstruction({ programAddress: SYSTEM, accounts, data: new Uint8Array(data) }, USER);
const token = (accounts: string[], data: number[], programAddress: string = SOLANA_PROGRAM_ADDRESSES.token) =>
  decodeTokenInstruction({ programAddress, accounts, data: new Uint8Array(data) }, USER);

describe("decodeSystemInstruction (bytes written by hand from the System Program layout)", () => {
  it("counts lamports the user pays: Transfer, CreateAccount, CreateAccountWithSeed, TransferWithSeed, WithdrawNonceAccount", () => {
    expect(system([USER, OTHER], [...u32(2), ...u64(5_000n)])).toEqual({
      kind: "nativeOutflow",
      lamports: 5_000n,
      instruction: "Transfer",
      to: OTHER,
    });
    expect(
      system([USER, OTHER], [...u32(0), ...u64(7n), ...u64(165n), ...new Array(32).fill(9)]),
    ).toMatchObject({
      kind: "nativeOutflow",
      lamports: 7n,
    });
    const seed = [...new TextEncoder().encode("abc")];
    const withSeed = [
      ...u32(3),
      ...new Array(32).fill(1),
      ...u64(3n),
      ...seed,
      ...u64(11n),
      ...u64(0n),
      ...new Array(32).fill(0),
    ];
    expect(system([USER, OTHER], withSeed)).toMatchObject({ kind: "nativeOutflow", lamports: 11n });
    expect(system([OTHER, USER, OTHER], [...u32(11), ...u64(13n)])).toMatchObject({
      kind: "nativeOutflow",
      lamports: 13n,
    });
    expect(system([OTHER, OTHER, OTHER, OTHER, USER], [...u32(5), ...u64(17n)])).toMatchObject({
      kind: "nativeOutflow",
      lamports: 17n,
    });
  });

  it("refuses handing the user's account over: Assign, AssignWithSeed, AuthorizeNonceAccount, CreateAccount of the user with an owner", () => {
    expect(system([USER], [...u32(1), ...new Array(32).fill(3)]).kind).toBe("authorityGrant");
    expect(system([OTHER, USER], [...u32(10), ...new Array(40).fill(0)]).kind).toBe("authorityGrant");
    expect(system([OTHER, USER], [...u32(7), ...new Array(32).fill(3)]).kind).toBe("authorityGrant");
    expect(system([OTHER, USER], [...u32(0), ...u64(1n), ...u64(0n), ...new Array(32).fill(4)]).kind).toBe(
      "authorityGrant",
    );
  });

  it("refuses a CreateAccount of the user's own address that gives it data, even owned by the System Program", () => {
    // A System-owned account with data can no longer send lamports (System Transfer needs an empty `from`) nor pay fees.
    const create = (space: bigint) => [...u32(0), ...u64(1n), ...u64(space), ...new Array(32).fill(0)];
    expect(system([OTHER, USER], create(10n)).kind).toBe("authorityGrant");
    expect(system([OTHER, USER], create(0n)).kind).toBe("none"); // only funds the user's address
  });

  it("ignores what does not involve the user, and calls malformed or unknown user instructions unknown", () => {
    expect(system([OTHER, OTHER], [...u32(2), ...u64(1n)]).kind).toBe("none");
    expect(system([USER, OTHER], [...u32(2), 1, 2]).kind).toBe("unknown");
    expect(system([USER], [...u32(8), ...u64(10n)]).kind).toBe("userRole"); // Allocate of the user's account
    expect(system([USER], [...u32(99)]).kind).toBe("unknown");
  });
});

describe("decodeTokenInstruction (SPL Token layout: index byte, little-endian u64)", () => {
  it("reads TransferChecked amounts as bigint without floats (u64 max)", () => {
    const max = 2n ** 64n - 1n;
    expect(token([OTHER, "Mint", OTHER, USER], [12, ...u64(max), 6])).toMatchObject({
      kind: "tokenTransfer",
      amount: max,
      mint: "Mint",
    });
  });

  it("refuses ApproveChecked and BurnChecked by the user, also on Token-2022", () => {
    expect(
      token([OTHER, "Mint", OTHER, USER], [13, ...u64(1n), 6], SOLANA_PROGRAM_ADDRESSES.token2022).kind,
    ).toBe("authorityGrant");
    expect(token([OTHER, "Mint", USER], [15, ...u64(1n), 6]).kind).toBe("tokenBurn");
  });

  it("counts a multisig signer as the user's authority", () => {
    expect(token([OTHER, OTHER, "Multisig", USER], [3, ...u64(5n)])).toMatchObject({
      kind: "tokenTransfer",
      amount: 5n,
    });
  });

  it("refuses the user's wallet key as a token account or a delegate (a role it never agreed to), and a malformed transfer as unknown", () => {
    expect(token([OTHER, "Mint", USER, OTHER], [12, ...u64(5n), 6])).toMatchObject({
      kind: "userRole",
      role: "account 2",
    });
    expect(token([OTHER, USER, OTHER], [4, ...u64(5n)])).toMatchObject({
      kind: "userRole",
      role: "account 1",
    });
    expect(token([OTHER, OTHER, USER], [3, 1, 2, 3]).kind).toBe("unknown");
  });
});

describe("decodeAssociatedTokenInstruction", () => {
  it("charges the user the rent of an account it pays for (more for Token-2022)", () => {
    const create = (program: string, data: number[]) =>
      decodeAssociatedTokenInstruction(
        {
          programAddress: "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL",
          accounts: [USER, OTHER, OTHER, "Mint", SYSTEM, program],
          data: new Uint8Array(data),
        },
        USER,
      );
    expect(create(SOLANA_PROGRAM_ADDRESSES.token, [1])).toMatchObject({
      kind: "nativeOutflow",
      lamports: 2_039_280n,
    });
    expect(create(SOLANA_PROGRAM_ADDRESSES.token2022, [])).toMatchObject({
      kind: "nativeOutflow",
      lamports: 2_721_360n, // bound: a 263-byte account (every account extension a mint can require)
    });
    expect(create(SOLANA_PROGRAM_ADDRESSES.token, [7]).kind).toBe("unknown");
  });
});

describe("hex helpers", () => {
  it("round-trip bytes, accept 0x, refuse odd length and non-hex", () => {
    const bytes = Uint8Array.from([0, 1, 127, 128, 255]);
    expect(bytesToHex(bytes)).toBe("00017f80ff");
    expect(hexToBytes("0x00017f80FF")).toEqual(bytes);
    expect(() => hexToBytes("abc")).toThrow(/SOL_TX_DECODE_FAILED/);
    expect(() => hexToBytes("zz")).toThrow(/SOL_TX_DECODE_FAILED/);
  });
});
