import { formatTronAddress } from "@swapintent/permit2/tron";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { createPermit2WalletBase } from "./permit2Wallet.js";

// A fixed test key (never funded anywhere).
const account = privateKeyToAccount(`0x${"11".repeat(32)}`);
const info = {
  chainId: 31337,
  rpcUrl: "http://127.0.0.1:1",
  permit2Address: "0x000000000022D473030F116dDEE9F6B43aC78BA3",
  escrowAddress: "0x00000000000000000000000000000000000e5c40",
  tokens: { ETH: "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee", TRX: "T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb" },
};

describe("createPermit2WalletBase", () => {
  it("an EVM wallet: its 0x address, the facts approve needs, ETH gas", () => {
    const { wallet, chainId, permit2, escrow } = createPermit2WalletBase({ info, tron: false, account });
    expect({ chainId, permit2, escrow }).toEqual({
      chainId: 31337,
      permit2: info.permit2Address,
      escrow: info.escrowAddress,
    });
    expect(wallet).toMatchObject({ type: "EVM", address: account.address, publicKeyHex: undefined });
    expect(wallet.gasFunding).toEqual({ token: info.tokens.ETH, amount: "1" });
  });

  it("a Tron wallet: the same key's base58 address, TRX gas", () => {
    const { wallet } = createPermit2WalletBase({ info, tron: true, account });
    expect(wallet.type).toBe("TRON");
    expect(wallet.address).toBe(formatTronAddress({ address: account.address }));
    expect(wallet.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(wallet.gasFunding).toEqual({ token: info.tokens.TRX, amount: "100" });
  });

  it("asks for no gas when the facts list no native coin (an inherited key does not count)", () => {
    const tokens = Object.create({ ETH: "0xinherited" }) as Record<string, string>;
    expect(
      createPermit2WalletBase({ info: { ...info, tokens }, tron: false, account }).wallet.gasFunding,
    ).toBeNull();
  });

  it.each(["chainId", "rpcUrl", "permit2Address", "escrowAddress"])("refuses facts without %s", (key) => {
    const partial: Record<string, unknown> = { ...info };
    delete partial[key];
    expect(() => createPermit2WalletBase({ info: partial, tron: false, account })).toThrow(
      `chain facts lack \`${key}\``,
    );
  });
});
