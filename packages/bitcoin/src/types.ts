/**
 * The secp256k1 functions this package needs. Both `tiny-secp256k1` (WASM, Node) and
 * `@bitcoinerlab/secp256k1` (pure JS, browsers) satisfy it: pass either module as `ecc`.
 */
export interface BitcoinEcc {
  /** Whether `p` is a public key on the curve (33-byte compressed or 65-byte uncompressed). */
  isPoint(p: Uint8Array): boolean;
  /** Whether `p` is a 32-byte x-only public key on the curve (BIP-340). */
  isXOnlyPoint(p: Uint8Array): boolean;
  /** The x-only key `p` tweaked by `tweak` (BIP-341: `P + tweak·G`) and its parity; `null` when there is none. */
  xOnlyPointAddTweak(p: Uint8Array, tweak: Uint8Array): { parity: 0 | 1; xOnlyPubkey: Uint8Array } | null;
  /** Whether the 64-byte ECDSA `signature` (r ‖ s) over the 32-byte hash `h` verifies for the public key `Q`. */
  verify(h: Uint8Array, Q: Uint8Array, signature: Uint8Array, strict?: boolean): boolean;
  /** Whether the 64-byte BIP-340 Schnorr `signature` over the 32-byte `h` verifies for the x-only key `Q`. */
  verifySchnorr(h: Uint8Array, Q: Uint8Array, signature: Uint8Array): boolean;
}

/**
 * A key that signs sighashes: an `ecpair` `ECPairInterface` fits, as does a hardware or remote signer.
 * Methods may return promises. `publicKey` is the user's 33-byte compressed key.
 *
 * For a P2TR (BIP-86) input the key-path signature must be made with the tweaked key: when `tweak` is present
 * (ECPair has it) the package tweaks the key itself; otherwise `signSchnorr` must already sign with the
 * BIP-86-tweaked key. Every signature is verified before it is used.
 */
export interface KeySigner {
  publicKey: Uint8Array;
  /** Signs a 32-byte sighash (P2WPKH inputs) with ECDSA and returns the 64-byte signature r ‖ s. */
  sign(hash: Uint8Array): Uint8Array | Promise<Uint8Array>;
  /** Signs a 32-byte sighash (P2TR key-path inputs) with BIP-340 Schnorr and returns the 64-byte signature. */
  signSchnorr?: ((hash: Uint8Array) => Uint8Array | Promise<Uint8Array>) | undefined;
  /** The signer of this key tweaked by `t` (ECPair's `tweak`): given the BIP-86 tweak, it signs P2TR key paths. */
  tweak?: ((t: Uint8Array) => KeySigner) | undefined;
}

/** One input a wallet is asked to sign, as verified: which script of the user's key it spends, and how. */
export interface SignPsbtInput {
  /** The input's index in the PSBT. */
  index: number;
  /**
   * What the user's key signs: a BIP-86 key path of the user's P2TR output (`p2tr`), the user's P2WPKH output, or
   * (`htlcRefund`, `signHtlcRefund`) the HTLC's refund leaf, a Taproot script path signed with the user's untweaked
   * key (the input carries the leaf and its control block as `tapLeafScript`).
   */
  kind: "p2tr" | "p2wpkh" | "htlcRefund";
  /**
   * The user's script whose key signs, to name the address a wallet signs with: the prevout script (the user's P2TR
   * or P2WPKH script), or for `htlcRefund` the user's own P2TR (BIP-86) script, whose internal key the leaf names.
   */
  script: Uint8Array;
  /** The sighash type to sign with: the PSBT's, else DEFAULT (0x00) for P2TR and ALL (0x01) for P2WPKH. */
  sighashType: number;
}

/** What a wallet's `signPsbt` receives (one object, like every function of this package). */
export interface SignPsbtParameters {
  /** The verified deposit PSBT, base64 (unlisted inputs keep only their UTXO data). */
  psbt: string;
  /** The indexes of the inputs to sign: the user's own inputs, nothing else. */
  inputs: number[];
  /** The same inputs with what a wallet's API asks for: script type, prevout script and sighash type. */
  signInputs: SignPsbtInput[];
}

/** What a wallet's `signPsbt` returns: the PSBT (base64) with the listed inputs signed or finalized. */
export type SignPsbtReturnType = string;

/**
 * A wallet that signs a PSBT itself (for example a browser wallet's `signPsbt`; `@swapintent/bitcoin/wallets`
 * adapts Unisat, sats-connect and Leather). It receives `{ psbt, inputs, signInputs }`, the verified base64 PSBT and
 * the inputs to sign, and returns the PSBT (base64) with those inputs signed (or finalized with exactly the
 * user's signature). The result is re-checked: nothing but the listed inputs' signatures may change, and every
 * signature must verify against its sighash with the verified sighash type.
 */
export interface PsbtWalletSigner {
  publicKey: Uint8Array;
  /** Signs the listed inputs of the verified PSBT and returns the PSBT (base64). */
  signPsbt(parameters: SignPsbtParameters): Promise<SignPsbtReturnType>;
}

/** Limits a signer enforces on the deposit PSBT. Every field has a default (`DEFAULT_HTLC_POLICY`). */
export interface HtlcPolicy {
  /** Smallest accepted refund delay, in blocks (BIP-68 block count, at most 0xffff). */
  minCsvBlocks: number;
  /** Largest accepted refund delay, in blocks (at most 0xffff: above it BIP-68 flag bits change the meaning). */
  maxCsvBlocks: number;
  /** Largest accepted fee, in satoshis (default 20,000). */
  maxFeeLots: bigint;
  /**
   * Largest accepted fee rate, in satoshis per virtual byte of the signed transaction (estimated; default 25, a busy
   * mempool's rate). The service picks the fee and what it adds comes out of the user's change: pass your fee
   * estimator's rate (with a margin) when the market is higher.
   */
  maxFeeRateSatPerVbyte: bigint;
  /**
   * Largest share of the fee the user pays (the fee less what the service's own inputs bring), relative to the
   * quoted amount, in basis points (default 200: 2%). The absolute caps alone let a 10,000-sat swap burn 30,000 sat;
   * raise it for swaps too small to pay their own relay fee within it.
   */
  maxFeeBps: number;
  /**
   * Smallest accepted fee rate, in satoshis per estimated virtual byte (default 1, Bitcoin Core's minimum relay
   * rate): a deposit below it would never be relayed.
   */
  minFeeRateSatPerVbyte: bigint;
  /**
   * Latest accepted intent deadline, in seconds after the caller's clock (default 86,400, one day). Bitcoin knows
   * no deadline: while the intent is open the service may broadcast the signed deposit when it chooses, and the
   * refund delay only starts once it confirms.
   * Below 500,000,000 (a larger number is a unix time, an absolute deadline): `BTC_POLICY_INVALID`.
   */
  maxDeadlineSecs: number;
  /**
   * Largest accepted block-height `nLockTime` of the deposit (for example the wallet's chain tip + 1, which
   * allows anti-fee-sniping locktimes). When unset, a height locktime that the transaction enforces is refused:
   * it would let the service hold a signed deposit that becomes valid only later. A time locktime is accepted
   * only when it is not in the future (the caller's clock). Below 500,000,000 (at or above it nLockTime is a unix
   * time, so such a cap would accept every height): `BTC_POLICY_INVALID`.
   */
  maxLockTimeHeight?: number | undefined;
  /**
   * When set, the claim leaf must pay this key (33-byte compressed or 32-byte x-only, hex). When unset any
   * claim key is accepted: the claim path needs the secret, which only the service releases after delivering.
   */
  resolverPublicKey?: string | undefined;
  /**
   * When set, the change output must be the user's script of this type: pass the type of the user's source
   * address (the one the wallet watches). When unset the change must be of the type the listed inputs spend when
   * they are all of one type (either, when they are of both): an HD wallet that watches only one of the key's two
   * scripts would not see change sent to the other.
   */
  changeScriptType?: "p2tr" | "p2wpkh" | undefined;
}

/**
 * The policy a caller passes: any subset of `HtlcPolicy`; a field left out or set to `undefined` keeps its
 * `DEFAULT_HTLC_POLICY` value.
 */
export type HtlcPolicyParameters = { [K in keyof HtlcPolicy]?: HtlcPolicy[K] | undefined };

/** The HTLC output of a verified deposit PSBT. */
export interface HtlcOutput {
  outputIndex: number;
  valueLots: bigint;
  /** The P2TR output script. */
  script: Uint8Array;
  secretHash: Uint8Array;
  resolverXOnly: Uint8Array;
  userXOnly: Uint8Array;
  csvBlocks: number;
  claimLeaf: Uint8Array;
  refundLeaf: Uint8Array;
}
