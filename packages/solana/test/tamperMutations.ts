/**
 * Test support for the generative tamper test: the mutations a malicious service could make to the honest
 * transaction, its message and the JSON it sends, and the instructions the program clients build.
 */
import { type Address, createAddressWithSeed, type createNoopSigner, type Instruction } from "@solana/kit";
import { MessageV0, PublicKey, VersionedTransaction } from "@solana/web3.js";
import {
  getAllocateInstruction,
  getAssignInstruction,
  getCreateAccountWithSeedInstruction,
  getTransferSolInstruction,
} from "@solana-program/system";
import {
  AuthorityType,
  getApproveInstruction,
  getBurnCheckedInstruction,
  getBurnInstruction,
  getCloseAccountInstruction,
  getCreateAssociatedTokenIdempotentInstructionAsync,
  getFreezeAccountInstruction,
  getMintToInstruction,
  getRevokeInstruction,
  getSetAuthorityInstruction,
  getSyncNativeInstruction,
  getThawAccountInstruction,
  getTransferCheckedInstruction,
  getTransferInstruction,
} from "@solana-program/token";
import { bytesToHex, hexToBytes } from "../src/internal/hex.js";
import { honestHex, PROGRAMS, pool, utf8 } from "./effectOracle.js";
import { DECIMALS } from "./fixture.js";

export type Builder = (x: {
  pick: (i: number) => Address;
  signer: (i: number) => ReturnType<typeof createNoopSigner>;
  amount: bigint;
  /** SPL Token or Token-2022 (the token builders' program). */
  tokenProgram: Address;
}) => Instruction | Promise<Instruction>;

/** Instructions as the program clients build them; accounts from the pool, authorities the user or the resolver. */
export const BUILDERS: Builder[] = [
  ({ pick, signer, amount }) =>
    getTransferSolInstruction({ source: signer(0), destination: pick(0), amount }),
  async ({ pick, signer, amount }) => {
    const base = signer(1);
    const programAddress = pick(1);
    return getCreateAccountWithSeedInstruction({
      payer: signer(0),
      newAccount: await createAddressWithSeed({ baseAddress: base.address, programAddress, seed: "fuzz" }),
      baseAccount: base,
      base: base.address,
      seed: "fuzz",
      amount,
      space: 0n,
      programAddress,
    });
  },
  ({ signer, pick }) => getAssignInstruction({ account: signer(0), programAddress: pick(0) }),
  ({ signer }) => getAllocateInstruction({ newAccount: signer(0), space: 8n }),
  ({ pick, signer, amount, tokenProgram }) =>
    getTransferCheckedInstruction(
      {
        source: pick(0),
        mint: pick(1),
        destination: pick(2),
        authority: signer(0),
        amount,
        decimals: DECIMALS,
      },
      { programAddress: tokenProgram },
    ),
  ({ pick, signer, amount, tokenProgram }) =>
    getTransferInstruction(
      { source: pick(0), destination: pick(1), authority: signer(0), amount },
      { programAddress: tokenProgram },
    ),
  ({ pick, signer, amount, tokenProgram }) =>
    getApproveInstruction(
      { source: pick(0), delegate: pick(1), owner: signer(0), amount },
      { programAddress: tokenProgram },
    ),
  ({ pick, signer, tokenProgram }) =>
    getRevokeInstruction({ source: pick(0), owner: signer(0) }, { programAddress: tokenProgram }),
  ({ pick, signer, tokenProgram }) =>
    getSetAuthorityInstruction(
      {
        owned: pick(0),
        owner: signer(0),
        authorityType: AuthorityType.AccountOwner,
        newAuthority: pick(1),
      },
      { programAddress: tokenProgram },
    ),
  ({ pick, signer, tokenProgram }) =>
    getCloseAccountInstruction(
      { account: pick(0), destination: pick(1), owner: signer(0) },
      { programAddress: tokenProgram },
    ),
  ({ pick, signer, amount, tokenProgram }) =>
    getBurnCheckedInstruction(
      {
        account: pick(0),
        mint: pick(1),
        authority: signer(0),
        amount,
        decimals: DECIMALS,
      },
      { programAddress: tokenProgram },
    ),
  ({ pick, signer, amount, tokenProgram }) =>
    getMintToInstruction(
      { mint: pick(0), token: pick(1), mintAuthority: signer(0), amount },
      { programAddress: tokenProgram },
    ),
  ({ pick, signer }) =>
    getCreateAssociatedTokenIdempotentInstructionAsync({ payer: signer(0), owner: pick(0), mint: pick(1) }),
  ({ pick, tokenProgram }) =>
    getSyncNativeInstruction({ account: pick(0) }, { programAddress: tokenProgram }),
  ({ pick, signer, amount, tokenProgram }) =>
    getBurnInstruction(
      { account: pick(0), mint: pick(1), authority: signer(0), amount },
      { programAddress: tokenProgram },
    ),
  ({ pick, signer, tokenProgram }) =>
    getFreezeAccountInstruction(
      { account: pick(0), mint: pick(1), owner: signer(0) },
      { programAddress: tokenProgram },
    ),
  ({ pick, signer, tokenProgram }) =>
    getThawAccountInstruction(
      { account: pick(0), mint: pick(1), owner: signer(0) },
      { programAddress: tokenProgram },
    ),
];

export function replace(current: unknown, value: unknown): unknown {
  if (typeof value !== "string") return value;
  if (value.startsWith("#pool")) return pool[Number(value.slice(5)) % pool.length];
  if (!value.startsWith("#edit:") || typeof current !== "string") return value;
  const edits: Record<string, (s: string) => string> = {
    upper: (s) => s.toUpperCase(),
    bom: (s) => `\uFEFF${s}`,
    rlo: (s) => `\u202E${s}`,
    newline: (s) => `${s}\n`,
    trim: (s) => s.slice(0, -1),
    append: (s) => `${s}0`,
  };
  return edits[value.slice(6)]!(current);
}

export type MessageMutation =
  | { kind: "header"; field: number; delta: number }
  | { kind: "key"; index: number; with: number }
  | { kind: "blockhash"; with: number }
  | { kind: "program"; ix: number; index: number }
  | { kind: "account"; ix: number; at: number; index: number; op: "set" | "add" | "drop" }
  | { kind: "data"; ix: number; at: number; value: number; op: "set" | "add" | "drop" }
  | { kind: "order"; ix: number; op: "drop" | "duplicate" | "swap" }
  | { kind: "memo"; edit: string };

/** Edits of the memo's bytes: each leaves a text that reads (almost) the same but is recorded differently. */
export const MEMO_EDITS: Record<string, (bytes: Uint8Array) => Uint8Array> = {
  bom: (b) => Uint8Array.from([0xef, 0xbb, 0xbf, ...b]),
  rlo: (b) => Uint8Array.from([...utf8("\u202E"), ...b]),
  zeroWidth: (b) => Uint8Array.from([...b.subarray(0, 10), ...utf8("\u200B"), ...b.subarray(10)]),
  upper: (b) => utf8(new TextDecoder().decode(b).toUpperCase()),
  trailingSpace: (b) => Uint8Array.from([...b, 0x20]),
  newline: (b) => Uint8Array.from([...b, 0x0a]),
  invalidByte: (b) => Uint8Array.from([...b, 0xff]),
  overlongColon: (b) => {
    const i = b.indexOf(0x3a);
    return Uint8Array.from([...b.subarray(0, i), 0xc0, 0xba, ...b.subarray(i + 1)]);
  },
  fullwidthColon: (b) => utf8(new TextDecoder().decode(b).replace(":", "\uFF1A")),
};

/** Apply structured edits to the decoded honest message and re-serialize it with web3.js (undefined if it cannot). */
export function mutateMessage(mutations: readonly MessageMutation[]): string | undefined {
  const original = VersionedTransaction.deserialize(hexToBytes(honestHex)).message as MessageV0;
  const header = { ...original.header };
  const keys = [...original.staticAccountKeys];
  let blockhash = original.recentBlockhash;
  const instructions = original.compiledInstructions.map((c) => ({
    programIdIndex: c.programIdIndex,
    accountKeyIndexes: [...c.accountKeyIndexes],
    data: Uint8Array.from(c.data),
  }));
  for (const m of mutations) {
    const ix = "ix" in m ? instructions[m.ix % Math.max(1, instructions.length)] : undefined;
    switch (m.kind) {
      case "header": {
        const field = (
          ["numRequiredSignatures", "numReadonlySignedAccounts", "numReadonlyUnsignedAccounts"] as const
        )[m.field]!;
        header[field] = Math.max(0, header[field] + m.delta);
        break;
      }
      case "key":
        keys[m.index % keys.length] = new PublicKey(pool[m.with % pool.length]!);
        break;
      case "blockhash":
        blockhash = new PublicKey(pool[m.with % pool.length]!).toBase58();
        break;
      case "program":
        if (ix) ix.programIdIndex = m.index;
        break;
      case "account":
        if (!ix) break;
        if (m.op === "add") ix.accountKeyIndexes.splice(m.at % (ix.accountKeyIndexes.length + 1), 0, m.index);
        else if (ix.accountKeyIndexes.length > 0) {
          const at = m.at % ix.accountKeyIndexes.length;
          if (m.op === "set") ix.accountKeyIndexes[at] = m.index;
          else ix.accountKeyIndexes.splice(at, 1);
        }
        break;
      case "data": {
        if (!ix) break;
        const data = [...ix.data];
        if (m.op === "add") data.splice(m.at % (data.length + 1), 0, m.value);
        else if (data.length > 0) {
          if (m.op === "set") data[m.at % data.length] = m.value;
          else data.splice(m.at % data.length, 1);
        }
        ix.data = Uint8Array.from(data);
        break;
      }
      case "memo": {
        const memoIndex = keys.findIndex((k) => k.toBase58() === PROGRAMS.memo);
        const memo = instructions.find((c) => c.programIdIndex === memoIndex);
        if (memo) memo.data = Uint8Array.from(MEMO_EDITS[m.edit]!(memo.data));
        break;
      }
      case "order": {
        const i = m.ix % instructions.length;
        if (m.op === "drop") instructions.splice(i, 1);
        else if (m.op === "duplicate")
          instructions.splice(i, 0, {
            ...instructions[i]!,
            accountKeyIndexes: [...instructions[i]!.accountKeyIndexes],
          });
        else if (instructions.length > 1) {
          const j = (i + 1) % instructions.length;
          [instructions[i], instructions[j]] = [instructions[j]!, instructions[i]!];
        }
        break;
      }
    }
  }
  try {
    const message = new MessageV0({
      header,
      staticAccountKeys: keys,
      recentBlockhash: blockhash,
      compiledInstructions: instructions,
      addressTableLookups: [],
    });
    const signatures = Array.from({ length: header.numRequiredSignatures }, () => new Uint8Array(64));
    return bytesToHex(new VersionedTransaction(message, signatures).serialize());
  } catch {
    return undefined;
  }
}
