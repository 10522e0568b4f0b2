/**
 * TronLink's injected `window.tronWeb` (`tronLink` parameter): a stand-in with TronWeb's documented shape
 * (`defaultAddress.base58`, `trx.signTypedData(domain, types, value)` or its older name `trx._signTypedData`, the
 * wallet's own key when none is passed) that signs with the real TronWeb TIP-712 implementation. The signature must
 * recover to the owner's hex form, or it is refused.
 */
import * as tronweb from "tronweb";
import { recoverTypedDataAddress, type TypedDataDefinition } from "viem";
import { describe, expect, it, vi } from "vitest";
import {
  buildPermit2Fixture,
  EVM,
  OTHER_PRIVATE_KEY,
  TRON,
  USER_ADDRESS,
  USER_PRIVATE_KEY,
} from "../../test/fixtures/buildPermit2Fixture.js";
import { isPermit2Error } from "../errors.js";
import type { Permit2TypedData } from "../types.js";
import { signTronPermit2Approval, type TronLinkTronWeb } from "./signTronPermit2Approval.js";

type Domain = Permit2TypedData["domain"];
type Types = Permit2TypedData["types"];
type Value = Permit2TypedData["message"];

function parametersOf(witness?: Record<string, string>) {
  const f = buildPermit2Fixture({ chain: "tron", ...(witness ? { witness } : {}) });
  return {
    fixture: f,
    parameters: {
      intent: f.intent,
      quote: f.quote,
      expected: f.expected,
      allowedPermit2Addresses: f.allowedPermit2Addresses,
      nowMs: f.nowMs,
    },
  };
}

/** The injected object: the key is the stand-in's; `name` picks which documented method it has. */
function standInTronWeb(options: {
  name?: "signTypedData" | "_signTypedData";
  privateKey?: string;
  base58?: string | false;
  changeDomain?: (domain: Domain) => Domain;
}) {
  const sign = vi.fn(async (domain: Domain, types: Types, value: Value, privateKey?: string) => {
    if (privateKey !== undefined) throw new Error("TronLink signs with its own key");
    const signed = options.changeDomain ? options.changeDomain(domain) : domain;
    return tronweb.Trx.signTypedData(signed, types, value, options.privateKey ?? USER_PRIVATE_KEY);
  });
  const tronLink: TronLinkTronWeb = {
    defaultAddress: { base58: options.base58 ?? TRON.user, hex: false },
    trx: { [options.name ?? "signTypedData"]: sign },
  };
  return { tronLink, sign };
}

async function refusal(run: () => Promise<unknown>) {
  const error = await run().catch((e: unknown) => e);
  if (!isPermit2Error(error)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

describe("signTronPermit2Approval with TronLink's injected tronWeb", () => {
  for (const name of ["signTypedData", "_signTypedData"] as const) {
    it(`signs through trx.${name}(domain, types, value) with base58 addresses; viem recovers the owner`, async () => {
      const { fixture, parameters } = parametersOf();
      const { tronLink, sign } = standInTronWeb({ name });
      const result = await signTronPermit2Approval({ ...parameters, tronLink });
      expect(sign).toHaveBeenCalledTimes(1);
      expect(sign.mock.calls[0]![0].verifyingContract).toBe(TRON.permit2);
      expect(sign.mock.calls[0]).toHaveLength(3); // no private key: the wallet's own
      expect(result.owner).toBe(TRON.user);
      expect(
        await recoverTypedDataAddress({
          ...(fixture.evmTypedData as unknown as TypedDataDefinition),
          signature: result.signature,
        }),
      ).toBe(USER_ADDRESS);
    });
  }

  it("a TronLink that signs with another key: PERMIT2_SIGNER_MISMATCH against the owner's hex form", async () => {
    const { parameters } = parametersOf();
    const { tronLink } = standInTronWeb({ privateKey: OTHER_PRIVATE_KEY });
    const error = await refusal(() => signTronPermit2Approval({ ...parameters, tronLink }));
    expect(isPermit2Error(error, "PERMIT2_SIGNER_MISMATCH") && error.details.expected).toBe(
      USER_ADDRESS.toLowerCase(),
    );
  });

  it("a TronLink that signs for another chain or Permit2 contract: PERMIT2_SIGNER_MISMATCH", async () => {
    const changes = [
      (domain: Domain) => ({ ...domain, chainId: 728126428 }),
      (domain: Domain) => ({ ...domain, verifyingContract: TRON.escrow }),
    ];
    for (const changeDomain of changes) {
      const { parameters } = parametersOf();
      const { tronLink } = standInTronWeb({ changeDomain });
      expect((await refusal(() => signTronPermit2Approval({ ...parameters, tronLink }))).code).toBe(
        "PERMIT2_SIGNER_MISMATCH",
      );
    }
  });

  it("no connected account (defaultAddress.base58 false) or an EVM one: PERMIT2_OWNER_MISMATCH, never asked", async () => {
    for (const base58 of [false, EVM.resolver, "T-not-an-address"] as const) {
      const { parameters } = parametersOf();
      const { tronLink, sign } = standInTronWeb({ base58 });
      expect((await refusal(() => signTronPermit2Approval({ ...parameters, tronLink }))).code).toBe(
        "PERMIT2_OWNER_MISMATCH",
      );
      expect(sign).not.toHaveBeenCalled();
    }
  });

  it("a tronWeb with neither signing method, or a refusal: PERMIT2_SIGNING_FAILED with the cause", async () => {
    const { parameters } = parametersOf();
    const bare: TronLinkTronWeb = { defaultAddress: { base58: TRON.user }, trx: {} };
    const error = await refusal(() => signTronPermit2Approval({ ...parameters, tronLink: bare }));
    expect(isPermit2Error(error, "PERMIT2_SIGNING_FAILED") && error.details.step).toBe("sign");
    const { tronLink, sign } = standInTronWeb({});
    sign.mockRejectedValueOnce(new Error("Confirmation declined by user"));
    const declined = await refusal(() => signTronPermit2Approval({ ...parameters, tronLink }));
    expect(declined.code).toBe("PERMIT2_SIGNING_FAILED");
    expect((declined.cause as Error).message).toBe("Confirmation declined by user");
  });

  it("a tampered permit never reaches TronLink", async () => {
    for (const witness of [{ maxDestAmount: "1" }, { recipient: "bcrt1qsomeoneelse" }]) {
      const { parameters } = parametersOf();
      const { intent } = buildPermit2Fixture({ chain: "tron", witness });
      const { tronLink, sign } = standInTronWeb({});
      await refusal(() => signTronPermit2Approval({ ...parameters, intent, tronLink }));
      expect(sign).not.toHaveBeenCalled();
    }
  });
});
