// The Permit2 wallets of `?wallets=injected`: an EIP-1193 wallet (`window.ethereum`) through
// `signPermit2Approval({ provider })`, and TronLink (`window.tronWeb`) through `signTronPermit2Approval({ tronLink })`.
// The key stays in the wallet: the page learns the account, verifies the permit, asks the wallet to sign and
// recovers the signer from what it returns. The one-time Permit2 allowance is the wallet owner's to give beforehand
// (here the test gives it); the page only checks it.
import type { VerifyPermit2ApprovalParameters } from "@swapintent/permit2";
import {
  getPermit2Allowance,
  type Permit2Eip1193Provider,
  type SignPermit2ApprovalReturnType,
  signPermit2Approval,
} from "@swapintent/permit2/evm";
import {
  parseTronAddress,
  type SignTronPermit2ApprovalReturnType,
  signTronPermit2Approval,
  type TronLinkTronWeb,
} from "@swapintent/permit2/tron";
import type { ChainFacts } from "@swapintent/testing/devApi";
import { type Address, createPublicClient, http } from "viem";
import { type BrowserWallet, readFact } from "../wallets/types.js";
import { injectedWallets } from "./index.js";

/** What the page reads of the window (no global declaration: other chains' modules declare their own wallets). */
interface InjectedPermit2Wallets {
  ethereum?: Permit2Eip1193Provider;
  tronWeb?: TronLinkTronWeb;
  tronLink?: { request(arguments_: { method: string }): Promise<unknown> };
}
const injected = () => window as unknown as InjectedPermit2Wallets;

/** The wallet's chain facts as the page's wallet config holds them (here: the sandbox's). */
function chainOf(chain: ChainFacts, tron: boolean) {
  const info = chain.info;
  const to20 = (address: string) => (tron ? parseTronAddress({ address }) : (address as Address));
  const permit2 = readFact(info, "permit2Address");
  const publicClient = createPublicClient({ transport: http(readFact(info, "rpcUrl")) });
  return {
    chainId: Number(readFact(info, "chainId")),
    permit2,
    escrow: readFact(info, "escrowAddress"),
    /** The one-time allowance to Permit2 must already cover the amount (no transaction from the page). */
    async prepare(owner: string, { token, amountLots }: { token: string; amountLots: bigint }) {
      const allowance = await getPermit2Allowance({
        publicClient,
        owner: to20(owner),
        token: to20(token),
        amount: amountLots,
        permit2Address: to20(permit2),
      });
      if (!allowance.sufficient) throw new Error("approve Permit2 for this token in the wallet first");
      return null;
    },
  };
}

/** The page's wallet around one injected wallet: its account, and `approve` through the package's adapter. */
function walletOf(params: {
  type: "EVM" | "TRON";
  address: string;
  chain: ReturnType<typeof chainOf>;
  /** Verifies and signs through the package's adapter for this wallet. */
  sign: (
    parameters: VerifyPermit2ApprovalParameters,
  ) => Promise<SignPermit2ApprovalReturnType | SignTronPermit2ApprovalReturnType>;
}): BrowserWallet {
  const { type, address, chain, sign } = params;
  return {
    type,
    address,
    publicKeyHex: undefined,
    gasFunding: null,
    prepare: (p) => chain.prepare(address, p),
    async approve({ intent, quote, recipient }) {
      const signed = await sign({
        intent,
        quote,
        expected: { chainId: chain.chainId, recipient, owner: address, spender: chain.escrow },
        allowedPermit2Addresses: [chain.permit2],
      });
      const by = type === "EVM" ? "window.ethereum" : "TronLink";
      return { approval: signed.approval, summary: [...signed.verified.summary.lines, `Signed in ${by}`] };
    },
  };
}

injectedWallets.push(
  {
    name: "ethereum",
    type: "EVM",
    async create({ chain }) {
      const provider = injected().ethereum;
      if (!provider) throw new Error("no window.ethereum");
      const accounts = (await provider.request({ method: "eth_requestAccounts" })) as string[];
      const address = accounts[0]!;
      return walletOf({
        type: "EVM",
        address,
        chain: chainOf(chain, false),
        sign: (parameters) => signPermit2Approval({ ...parameters, provider, account: address as Address }),
      });
    },
  },
  {
    // A smart-account wallet behind `window.ethereum` (ERC-1271; ERC-6492 while its account is not deployed): the
    // signer checks its signature against the chain through the same provider, as Permit2 will. Its Permit2
    // allowance comes with the account's deployment (the wallet's factory grants it), so the page checks none.
    name: "smartwallet",
    type: "EVM",
    async create({ chain }) {
      const provider = injected().ethereum;
      if (!provider) throw new Error("no window.ethereum");
      const accounts = (await provider.request({ method: "eth_requestAccounts" })) as string[];
      const address = accounts[0]!;
      const facts = chainOf(chain, false);
      return walletOf({
        type: "EVM",
        address,
        chain: { ...facts, prepare: async () => null },
        sign: (parameters) =>
          signPermit2Approval({
            ...parameters,
            provider,
            account: address as Address,
            publicClient: provider,
          }),
      });
    },
  },
  {
    name: "tronlink",
    type: "TRON",
    async create({ chain }) {
      const { tronLink, tronWeb } = injected();
      if (!tronLink || !tronWeb) throw new Error("no window.tronLink / window.tronWeb");
      await tronLink.request({ method: "tron_requestAccounts" });
      const address = tronWeb.defaultAddress.base58;
      if (!address) throw new Error("TronLink shared no account");
      return walletOf({
        type: "TRON",
        address,
        chain: chainOf(chain, true),
        sign: (parameters) => signTronPermit2Approval({ ...parameters, tronLink: tronWeb }),
      });
    },
  },
);
