import { startSandbox } from "../../src/index.js";
import type { Sandbox, SandboxOptions } from "../../src/types.js";
import {
  createTestLegFactory,
  createTestWallet,
  signTestApproval,
  type TestLeg,
  type TestLegOptions,
  type TestWallet,
} from "./createTestLeg.js";

/** The engines identity of sandboxes on the test double legs (see `SandboxOptions.enginesId`). */
export const TEST_DOUBLE_ENGINES_ID = "test-double-legs";

/** Wire JSON in tests: checked by assertions and by the spec schemas, not by the type system. */
// biome-ignore lint/suspicious/noExplicitAny: see above
export type Wire = any;

/** A JSON response. */
export interface ApiResponse<T = Wire> {
  status: number;
  body: T;
  headers: Headers;
}

/** A sandbox on test legs plus small request helpers. */
export interface TestSandbox {
  sandbox: Sandbox;
  legs: Map<number, TestLeg>;
  request<T = Wire>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiResponse<T>>;
  /** Token address of `symbol` on `networkId` from GET /tokens. */
  token(networkId: number, symbol: string): Promise<string>;
  quote(request: Partial<Record<string, unknown>>): Promise<ApiResponse>;
  /** Quote + intent for a fresh wallet funded on the source network; returns everything a test needs. */
  createIntent(options?: {
    sourceChain?: number;
    sourceSymbol?: string;
    destChain?: number;
    destSymbol?: string;
    amount?: number | string;
    fund?: boolean;
  }): Promise<{ wallet: TestWallet; recipient: TestWallet; quote: Wire; intent: Wire }>;
  approve(intent: Wire, wallet: TestWallet): Promise<ApiResponse>;
  /** Run resolver passes until the intent's status is one of `statuses` (at most `passes`). */
  settle(intentId: string, statuses: string[], passes?: number): Promise<Wire>;
  status(intentId: string): Promise<Wire>;
  close(): Promise<void>;
}

/** Start a sandbox on test legs, with dev endpoints on and the background resolver slowed down (tests drive it). */
export async function startTestSandbox(
  options: SandboxOptions = {},
  legOptions: TestLegOptions = {},
): Promise<TestSandbox> {
  const legs = new Map<number, TestLeg>();
  const sandbox = await startSandbox({
    port: 0,
    dev: true,
    log: () => {},
    resolverIntervalMs: 60_000,
    // The test doubles hold no funds another engine could miss: every test sandbox counts as the same engines,
    // unless a test names its own.
    enginesId: TEST_DOUBLE_ENGINES_ID,
    legs: createTestLegFactory({ ...legOptions, onCreate: (leg) => legs.set(leg.networkId, leg) }),
    ...options,
  });
  const request = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const response = await fetch(`${sandbox.url}${path}`, {
      method,
      headers: {
        "x-api-key": "test-key",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: text === "" ? undefined : JSON.parse(text),
      headers: response.headers,
    };
  };
  const tokenCache = new Map<string, string>();
  const token = async (networkId: number, symbol: string) => {
    const key = `${networkId}:${symbol}`;
    if (!tokenCache.has(key)) {
      const r = await request("GET", `/affiliate/v1/tokens?network_id=${networkId}&limit=100`);
      for (const t of r.body.data) tokenCache.set(`${t.network_id}:${t.symbol}`, t.contract_address);
    }
    const address = tokenCache.get(key);
    if (!address) throw new Error(`no ${symbol} on ${networkId}`);
    return address;
  };
  const quote = async (overrides: Partial<Record<string, unknown>>) =>
    request("POST", "/affiliate/v1/quotes/best", {
      source_chain: 1,
      source_token: await token(1, "USDC"),
      dest_chain: 5,
      dest_token: await token(5, "USDC"),
      amount: 100,
      slippage_bps: "50",
      swap_type: "standard",
      ...overrides,
    });
  const status = async (intentId: string) =>
    (await request("GET", `/affiliate/v1/intents/${intentId}/status`)).body;
  return {
    sandbox,
    legs,
    request,
    token,
    quote,
    status,
    async createIntent(o = {}) {
      const sourceChain = o.sourceChain ?? 1;
      const destChain = o.destChain ?? 5;
      const sourceToken = await token(sourceChain, o.sourceSymbol ?? "USDC");
      const q = await quote({
        source_chain: sourceChain,
        source_token: sourceToken,
        dest_chain: destChain,
        dest_token: await token(destChain, o.destSymbol ?? "USDC"),
        amount: o.amount ?? 100,
      });
      if (q.status !== 200) throw new Error(`quote failed: ${JSON.stringify(q.body)}`);
      const wallet = createTestWallet();
      const recipient = createTestWallet();
      if (o.fund !== false) {
        const f = await request("POST", "/sandbox/faucet", {
          network_id: sourceChain,
          address: wallet.address,
          token: sourceToken,
          amount: 1_000_000,
        });
        if (f.status !== 200) throw new Error(`faucet failed: ${JSON.stringify(f.body)}`);
      }
      const i = await request("POST", "/affiliate/v1/intents", {
        quote_id: q.body.id,
        refund_address: wallet.address,
        user_destination_address: recipient.address,
        user_source_address: wallet.address,
        user_source_public_key: wallet.publicKeyHex,
      });
      if (i.status !== 200) throw new Error(`intent failed: ${JSON.stringify(i.body)}`);
      return { wallet, recipient, quote: q.body, intent: i.body };
    },
    approve: (intent, wallet) =>
      request(
        "POST",
        `/affiliate/v1/intents/${intent.intent_id}/approvals`,
        signTestApproval({ wallet, intent }),
      ),
    async settle(intentId, statuses, passes = 20) {
      let current = await status(intentId);
      for (let i = 0; i < passes && !statuses.includes(current.status); i++) {
        await sandbox.runResolverOnce();
        current = await status(intentId);
      }
      return current;
    },
    close: () => sandbox.close(),
  };
}
