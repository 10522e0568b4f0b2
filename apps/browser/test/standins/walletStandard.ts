/**
 * Stand-in for a Solana wallet-standard wallet (Phantom, Solflare, Backpack…), injected into the page before it
 * loads (Playwright `addInitScript`, built to a plain script with esbuild). It follows the documented API:
 * registered with `registerWallet` (`@wallet-standard/core`, the `wallet-standard:register-wallet` event protocol),
 * features `standard:connect`, `standard:events` and `solana:signTransaction` (version 1.0.0, inputs
 * `{ account, transaction, chain? }` of wire bytes, outputs `{ signedTransaction }`). It holds its own ed25519 key
 * (WebCrypto, made on connect) and signs for real: it finds its signer slot in the message and puts its signature
 * there.
 *
 * `?standin=<mode>` in the page's URL makes it misbehave after signing: `message` changes a byte of the memo,
 * `other-signature` writes into the resolver's signature slot, `wrong-key` signs with another key.
 */
import { registerWallet, type Wallet, type WalletAccount } from "@wallet-standard/core";

const MODE = new URLSearchParams(location.search).get("standin") ?? "honest";
const CHAINS = ["solana:localnet", "solana:devnet"] as const;
const FEATURES = ["solana:signTransaction"] as const;
const ICON = "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=" as const;

/** Base58 (Bitcoin alphabet) with BigInt arithmetic; each leading zero byte is a `1`. */
function base58(bytes: Uint8Array): string {
  const alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
  let n = bytes.reduce((acc, b) => (acc << 8n) + BigInt(b), 0n);
  let out = "";
  while (n > 0n) {
    out = alphabet[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}

/** A compact-u16 at `at`: its value and the offset after it. */
function shortVec(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  for (let i = 0; ; i++) {
    const byte = bytes[at + i]!;
    value |= (byte & 0x7f) << (7 * i);
    if ((byte & 0x80) === 0) return [value, at + i + 1];
  }
}

/** Where the signature slots start, the message starts, and the static signer keys of a wire transaction. */
function layout(tx: Uint8Array): { slots: number; message: number; signers: Uint8Array[] } {
  const [count, slots] = shortVec(tx, 0);
  const message = slots + 64 * count;
  let at = message;
  if (tx[at]! & 0x80) at++; // versioned message prefix
  const required = tx[at]!;
  const [, keys] = shortVec(tx, at + 3);
  const signers = Array.from({ length: required }, (_, i) => tx.subarray(keys + 32 * i, keys + 32 * i + 32));
  return { slots, message, signers };
}

async function newKey(): Promise<{ key: CryptoKeyPair; publicKey: Uint8Array }> {
  const key = (await crypto.subtle.generateKey({ name: "Ed25519" }, false, [
    "sign",
    "verify",
  ])) as CryptoKeyPair;
  const publicKey = new Uint8Array(await crypto.subtle.exportKey("raw", key.publicKey));
  return { key, publicKey };
}

const sign = async (key: CryptoKeyPair, message: Uint8Array<ArrayBuffer>) =>
  new Uint8Array(await crypto.subtle.sign({ name: "Ed25519" }, key.privateKey, message));

let own: { key: CryptoKeyPair; publicKey: Uint8Array } | undefined;
let accounts: WalletAccount[] = [];
const listeners = new Set<(properties: { accounts: readonly WalletAccount[] }) => void>();

/** Sign one wire transaction in the account's slot; then misbehave as `MODE` says. */
async function signOne(transaction: Uint8Array): Promise<Uint8Array> {
  if (!own) throw new Error("Stand-in: not connected");
  const tx = Uint8Array.from(transaction);
  const { slots, message, signers } = layout(tx);
  const index = signers.findIndex((k) => k.every((b, i) => b === own!.publicKey[i]));
  if (index < 0) throw new Error("Stand-in: the transaction does not need this account's signature");
  const signer = MODE === "wrong-key" ? (await newKey()).key : own.key;
  tx.set(await sign(signer, tx.slice(message)), slots + 64 * index);
  if (MODE === "message") tx[tx.length - 5]! ^= 1; // inside the memo, the last instruction of the message
  if (MODE === "other-signature")
    tx.fill(7, slots + 64 * (index === 0 ? 1 : 0), slots + 64 * (index === 0 ? 2 : 1));
  return tx;
}

const wallet: Wallet = {
  version: "1.0.0",
  name: "Stand-in Solana Wallet",
  icon: ICON,
  chains: CHAINS,
  get accounts() {
    return accounts;
  },
  features: {
    "standard:connect": {
      version: "1.0.0",
      async connect() {
        own ??= await newKey();
        accounts = [
          {
            address: base58(own.publicKey),
            publicKey: own.publicKey,
            chains: CHAINS,
            features: FEATURES,
            label: "Stand-in",
          },
        ];
        for (const listener of listeners) listener({ accounts });
        return { accounts };
      },
    },
    "standard:events": {
      version: "1.0.0",
      on(event: string, listener: (properties: { accounts: readonly WalletAccount[] }) => void) {
        if (event !== "change") return () => {};
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    "solana:signTransaction": {
      version: "1.0.0",
      supportedTransactionVersions: ["legacy", 0],
      async signTransaction(
        ...inputs: { account: WalletAccount; transaction: Uint8Array; chain?: string }[]
      ) {
        return Promise.all(
          inputs.map(async ({ account, transaction, chain }) => {
            if (!accounts.some((a) => a.address === account.address))
              throw new Error("Stand-in: unknown account");
            if (chain !== undefined && !CHAINS.includes(chain as (typeof CHAINS)[number]))
              throw new Error(`Stand-in: unsupported chain ${chain}`);
            return { signedTransaction: await signOne(transaction) };
          }),
        );
      },
    },
  },
};

registerWallet(wallet);
