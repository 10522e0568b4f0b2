/**
 * The domain: the canonical Permit2 is an EVM deployment; on Tron every Permit2 must be allowed by the caller.
 */
import { TronWeb } from "tronweb";
import { describe, expect, it } from "vitest";
import { codeOf } from "../../test/codeOf.js";
import { buildPermit2Fixture, type FixtureOptions } from "../../test/fixtures/buildPermit2Fixture.js";
import { parametersOf } from "../../test/fixtures/parametersOf.js";
import { signWithSpies } from "../../test/signWithSpies.js";
import { CANONICAL_PERMIT2_ADDRESS } from "../constants.js";
import { verifyPermit2Approval } from "./verifyPermit2Approval.js";

/** The Tron form (`41` + the same 20 bytes) of the canonical EVM Permit2 address. */
const CANONICAL_ON_TRON = TronWeb.address.fromHex(`41${CANONICAL_PERMIT2_ADDRESS.slice(2).toLowerCase()}`);

/** A fixture whose Permit2 (sent address and domain) is `permit2`. */
const withPermit2 = (chain: "evm" | "tron", permit2: string): FixtureOptions => ({
  chain,
  tamper: (params) => {
    params.permit2ContractAddress = permit2;
    params.additionalData.domain.verifyingContract = permit2;
  },
});

describe("the canonical Permit2 is an EVM deployment", () => {
  // On Tron no Permit2 lives at the canonical 20 bytes (TVM derives contract addresses with a 0x41 prefix, so
  // Uniswap's deterministic deployment does not land there): trusting them without the wallet's allow list let the
  // service name a contract the wallet never vetted as the verifying contract.
  it("a Tron permit for the canonical address's Tron form, not allowed by the wallet: PERMIT2_CONTRACT_NOT_ALLOWED, no wallet asked", async () => {
    for (const allowedPermit2Addresses of [
      [],
      undefined,
      [buildPermit2Fixture({ chain: "tron" }).allowedPermit2Addresses[0]!],
    ]) {
      const parameters = { ...parametersOf(withPermit2("tron", CANONICAL_ON_TRON)), allowedPermit2Addresses };
      expect(codeOf(() => verifyPermit2Approval(parameters))).toBe("PERMIT2_CONTRACT_NOT_ALLOWED");
      expect(await signWithSpies(parameters, "tron")).toEqual({
        code: "PERMIT2_CONTRACT_NOT_ALLOWED",
        calls: 0,
      });
    }
  });

  it("a Tron wallet that allows that address itself (either form) still may", () => {
    for (const allowed of [CANONICAL_ON_TRON, CANONICAL_PERMIT2_ADDRESS]) {
      const parameters = {
        ...parametersOf(withPermit2("tron", CANONICAL_ON_TRON)),
        allowedPermit2Addresses: [allowed],
      };
      expect(verifyPermit2Approval(parameters).typedData.domain.verifyingContract).toBe(CANONICAL_ON_TRON);
    }
  });

  it("on EVM the canonical Permit2 needs no allow list, in any case form", () => {
    for (const permit2 of [CANONICAL_PERMIT2_ADDRESS, CANONICAL_PERMIT2_ADDRESS.toLowerCase()]) {
      const parameters = { ...parametersOf(withPermit2("evm", permit2)), allowedPermit2Addresses: [] };
      expect(verifyPermit2Approval(parameters).typedData.domain.verifyingContract).toBe(
        CANONICAL_PERMIT2_ADDRESS,
      );
    }
  });
});
