import type { HexString, Intent, Quote, TypedDataField } from "@swapintent/client";
import type { Permit2Error, Permit2VerifyErrorCode } from "./errors.js";

/** The address family of a permit: `evm` (0x hex) or `tron` (base58check `T…`). */
export type Permit2ChainType = "evm" | "tron";

/** The EIP-712 domain of a Permit2 signature: no `version`. */
export interface Permit2Domain {
  name: "Permit2";
  chainId: number;
  verifyingContract: string;
}

/** Values of the witness struct: `uint*` as bigint, `bytes32` as lowercase hex, `string` as given. */
export type Permit2WitnessValues = Readonly<Record<string, bigint | string>>;

/** The message of a `PermitWitnessTransferFrom` signature. */
export interface Permit2Message {
  permitted: { token: string; amount: bigint };
  spender: string;
  nonce: bigint;
  deadline: bigint;
  witness: Permit2WitnessValues;
}

/** Typed data ready for `signTypedData`: types exclude `EIP712Domain`. */
export interface Permit2TypedData {
  domain: Permit2Domain;
  types: Record<string, TypedDataField[]>;
  primaryType: "PermitWitnessTransferFrom";
  message: Permit2Message;
}

/**
 * Where a fact on the confirmation screen comes from: `wallet` when it equals what the wallet passed from its own
 * state (`expected`), `service` when only the service reported it (the quote or `params_to_sign`).
 */
export type Permit2FactSource = "wallet" | "service";

/** Which summary facts the wallet confirmed itself and which only the service reported. */
export interface Permit2FactSources {
  /** `expected.sourceToken` was given and matched. */
  sourceToken: Permit2FactSource;
  /** `expected.sourceAmountLots` was given and matched. */
  sourceAmount: Permit2FactSource;
  /** `expected.sourceDecimals` was given and matched (else `amountFormatted` uses the service's decimals). */
  sourceDecimals: Permit2FactSource;
  /** `expected.spender` was an address and matched (`service` when `{ unchecked: true }`). */
  spender: Permit2FactSource;
  /**
   * `expected.destination` was given and matched: destination network, token and decimals equal the wallet's, and
   * the signed minimum is at least `expected.destination.minAmountLots`. Else every destination fact, and the
   * formatted min/max amounts, are the service's word.
   */
  destination: Permit2FactSource;
}

/**
 * What a wallet shows on its confirmation screen. Amounts in lots, and formatted with the decimals the summary
 * says where they come from (`sources`). Every string in it passed the display-text check (no control, bidi or
 * zero-width characters).
 */
export interface Permit2ApprovalSummary {
  chainType: Permit2ChainType;
  /** The chain id signed in the domain (masked to 32 bits on Tron). */
  chainId: number;
  permit2Address: string;
  /** The token the user lets the escrow pull. */
  token: string;
  amountLots: bigint;
  amountFormatted: string;
  /** The decimals `amountFormatted` uses (the wallet's when `sources.sourceDecimals` is `wallet`). */
  sourceDecimals: number;
  /** The escrow contract that may pull the tokens. */
  spender: string;
  deadlineSecs: number;
  /** The deadline as an ISO 8601 UTC timestamp. */
  deadlineIso: string;
  minDestAmountLots: bigint;
  minDestAmountFormatted: string;
  maxDestAmountLots: bigint;
  maxDestAmountFormatted: string;
  /** The decimals the formatted destination amounts use (the wallet's when `sources.destination` is `wallet`). */
  destDecimals: number;
  recipient: string;
  /** The service's network id of the destination. */
  destChain: number;
  destToken: string;
  intentId: string;
  /** The owner the caller expects to sign, when given. */
  owner: string | null;
  /** Which facts the wallet confirmed from its own state and which are the service's word. */
  sources: Permit2FactSources;
  /**
   * The same facts as short English lines, in display order. A line with facts only the service reported ends
   * with one mark naming them ("[not checked by the wallet, as the service reports it: token, amount]").
   */
  lines: string[];
}

/** What {@link verifyPermit2Approval} returns: the verified typed data to sign and the confirmation summary. */
export interface VerifyPermit2ApprovalReturnType {
  chainType: Permit2ChainType;
  /**
   * The typed data to sign, in the chain's own address form: `0x` checksummed on EVM, base58 `T…` on Tron
   * (what TronWeb and TronLink take).
   */
  typedData: Permit2TypedData;
  /** The same data as EIP-712 hashes it: 20-byte `0x` addresses, Tron chain id masked. Equal to `typedData` on EVM. */
  hashedTypedData: Permit2TypedData;
  /** The EIP-712 / TIP-712 digest that gets signed. */
  digest: HexString;
  /** `hashStruct(witness)` recomputed from `types` (equals `witness_hash`). */
  witnessHash: HexString;
  /** The `witnessTypeString` Permit2 gets (equals `witness_type_string`). */
  witnessTypeString: string;
  summary: Permit2ApprovalSummary;
}

/**
 * The destination side as the wallet knows it from its own state (its network catalogue and token registry, and
 * what the user agreed to receive), never from the service's quote.
 */
export interface Permit2DestinationExpectation {
  /** The service's network id of the destination chain, as the wallet's own catalogue maps it. */
  network: number;
  /**
   * That network's `type` in the wallet's catalogue (`GET /networks`: `EVM`, `TRON`, `BITCOIN`, `SOLANA`). It
   * decides how the recipient and the destination token compare: EVM hex by its bytes (case-insensitively, a
   * mixed-case spelling with a valid checksum), a Bitcoin bech32 address in either case, and every other address
   * (base58 on Solana, Tron and legacy Bitcoin) exactly. Without it every destination string compares exactly.
   */
  networkType?: string | undefined;
  /** The destination token as the wallet's registry spells it (contract address, mint, or `btc`). */
  token: string;
  /** The destination token's decimals from the wallet's registry; the quote's `destAmountDecimals` must match. */
  decimals: number;
  /**
   * The least the user accepts to receive, in lots of `decimals` (for example the amount the wallet showed minus the
   * slippage the user chose). The signed minimum (`witness.minDestAmount`) must be at least this.
   */
  minAmountLots: bigint;
}

/** What the signer must expect, from the wallet's own state (not from the service). */
export interface Permit2Expectation {
  /** The wallet's chain id (EVM chain id; Tron: the network's chain id, compared masked to 32 bits). */
  chainId: number | bigint;
  /** The destination address the user entered. */
  recipient: string;
  /** The address that will sign (shown in the summary; the signers check it against the signing account). */
  owner?: string | undefined;
  /**
   * The escrow contract the wallet trusts as spender (either address form), from the wallet's own configuration,
   * never from the service's response. Required: a service that could name any spender could name itself and pull
   * the quoted amount straight through Permit2. `{ unchecked: true }` skips the check explicitly, for a wallet
   * that has no independent source of the escrow address and accepts that risk.
   */
  spender: string | { unchecked: true };
  /**
   * The source token the user chose, from the wallet's own state (either address form). The quote comes from the
   * service: without this the permitted token is only checked against the quote.
   */
  sourceToken?: string | undefined;
  /**
   * The amount in lots the wallet computed itself from what the user typed and the token's decimals it knows. The
   * quote's lots and decimals both come from the service, so an inflated pair would still display the typed amount.
   */
  sourceAmountLots?: bigint | undefined;
  /** The source token's decimals as the wallet knows them; the quote's `sourceAmountDecimals` must match. */
  sourceDecimals?: number | undefined;
  /**
   * The destination network, token, decimals and the least the user accepts, from the wallet's own state.
   * Without it the witness is only checked against the quote, so a service that lowers the destination decimals
   * and the min/max lots together still reads the same on screen while the signed minimum is smaller; the summary
   * then marks every destination fact as the service's word (`summary.sources.destination === "service"`).
   */
  destination?: Permit2DestinationExpectation | undefined;
  /** The address family the wallet expects; the signers set it. */
  chainType?: Permit2ChainType | undefined;
  /**
   * The digest of the permit the user confirmed (`verified.digest` of the `verifyPermit2Approval` call whose summary
   * was shown). A signer verifies again; with this it signs only that permit, not one the intent or quote became
   * since (a second `createIntent`, a refreshed store): another digest is `PERMIT2_DIGEST_MISMATCH`.
   */
  digest?: HexString | undefined;
}

/** Parameters of `verifyPermit2Approval` (and of the signers, which verify first). */
export interface VerifyPermit2ApprovalParameters {
  /** The intent as the client returned it; must use `permit2`. */
  intent: Intent;
  /** The quote the user accepted. */
  quote: Quote;
  expected: Permit2Expectation;
  /**
   * Permit2 deployments the caller accepts besides the canonical one (either address form). The canonical address
   * is an EVM deployment: on Tron every Permit2, at those 20 bytes too, must be listed here.
   */
  allowedPermit2Addresses?: readonly string[] | undefined;
  /** How far in the future the deadline may lie, in seconds (default one day). */
  maxDeadlineSecs?: number | undefined;
  /** The current time in unix milliseconds (default `Date.now()`). */
  nowMs?: number | undefined;
}

/** The error {@link verifyPermit2Approval} throws: a `Permit2Error` with the code of the first check that failed. */
export type VerifyPermit2ApprovalErrorType = Permit2Error<Permit2VerifyErrorCode>;
