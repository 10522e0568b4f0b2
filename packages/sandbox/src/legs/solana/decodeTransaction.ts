import { getTransactionDecoder, type Transaction } from "@solana/kit";
import { LegRejection, type LegRejectionCode } from "../types.js";

/** Bytes as lower-case hex (no 0x). */
export function toHex(bytes: ArrayLike<number>): string {
  return Buffer.from(Uint8Array.from(bytes)).toString("hex");
}

/** A wire transaction from hex (0x optional); not hex or not a transaction: a `LegRejection` with `code`. */
export function decodeTransaction({ hex, code }: { hex: string; code: LegRejectionCode }): Transaction {
  if (!/^(0x)?([0-9a-fA-F]{2})+$/.test(hex)) throw new LegRejection(code, "the transaction is not hex");
  try {
    return getTransactionDecoder().decode(new Uint8Array(Buffer.from(hex.replace(/^0x/, ""), "hex")));
  } catch (cause) {
    throw new LegRejection(code, "the transaction could not be decoded", { cause });
  }
}
