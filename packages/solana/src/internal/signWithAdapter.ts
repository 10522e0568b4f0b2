/**
 * The one flow every signing path follows: check the signal, read the signer, verify and decode, ask the wallet
 * until the signal aborts, read its answer, assemble. Each path (web3.js, Kit, wallet-standard) only says how to
 * read its signer, how to ask it and how to read what it answered.
 */

import { solanaError } from "../errors.js";
import type { VerifiedTransaction } from "../types.js";
import { verifyAndDecode } from "../verifyCosignTransaction.js";
import { askUntilAborted, checkSignal, throwIfAborted } from "./abort.js";
import { assembleCosign, type CosignResult } from "./cosign.js";
import { readField } from "./readVerifyParameters.js";

/** How one signing path gets the user's signature. */
export type CosignAdapter = {
  /** The user's address, base58, as the signer names it (the address that is verified). */
  address: string;
  /** Checks of the signer against the verified transaction (a wallet that does not sign its version), before it is asked. */
  prepare?: (verified: VerifiedTransaction) => void;
} & (
  | {
      /** A key held here: signs at once, nothing to wait for. */
      kind: "local";
      sign: (verified: VerifiedTransaction) => Uint8Array;
    }
  | {
      /** A wallet or signer that is asked and may never answer: the wait ends when the signal aborts. */
      kind: "ask";
      /** Who is asked, in errors: `wallet`, `external signer`, `kit signer`, `wallet-standard wallet`. */
      source: string;
      ask: (verified: VerifiedTransaction, signal: AbortSignal | undefined) => Promise<unknown> | unknown;
      /** The user's signature from the answer, checked (only the user's slot may change). */
      read: (answer: unknown, verified: VerifiedTransaction) => Uint8Array;
    }
);

/** What every path's parameters carry besides its signer: the verification's parameters and the signal. */
const VERIFY_FIELDS = [
  "intent",
  "quote",
  "escrow",
  "allowedPrograms",
  "maxNativeOutflowLamports",
  "lookupTables",
  "checkMemo",
  "token2022Mint",
] as const;

/**
 * Run the shared flow for the path whose signer lives in `signerFields` of `parameters`. The parameters are read
 * once each, defensively (not an object, or a field whose reading throws: `SOL_INVALID_PARAMETERS`); `adapterOf`
 * reads the signer from them (its own refusals are `SOL_SIGNER_INVALID`).
 */
export async function signWithAdapter(
  parameters: unknown,
  signerFields: readonly string[],
  adapterOf: (fields: Readonly<Record<string, unknown>>) => CosignAdapter,
): Promise<CosignResult> {
  if (typeof parameters !== "object" || parameters === null)
    throw solanaError("SOL_INVALID_PARAMETERS", "parameters must be an object.", { parameter: "parameters" });
  const fields: Record<string, unknown> = {};
  for (const key of [...VERIFY_FIELDS, "signal", ...signerFields])
    fields[key] = readField(parameters, key, key);
  const signal = fields.signal as AbortSignal | undefined;
  checkSignal(signal);
  const adapter = adapterOf(fields);
  const verified = verifyAndDecode({ ...fields, userAddress: adapter.address } as never);
  adapter.prepare?.(verified);
  throwIfAborted(signal, "beforeSigning");
  let signature: Uint8Array;
  if (adapter.kind === "local") signature = adapter.sign(verified);
  else {
    const answer = await askUntilAborted(signal, adapter.source, () => adapter.ask(verified, signal));
    signature = adapter.read(answer, verified);
  }
  // An abort while the answer was checked still wins: no approval after an abort.
  throwIfAborted(signal, "whileSigning");
  return assembleCosign(verified, signature);
}
