// Every parameter a caller passes (the ecc backend and its functions, the intent and everything in it, the quote,
// the policy, the clock, the refund's inputs) may be an object with a getter that throws, a revoked proxy, or a
// backend whose function throws. Each public function reads its parameters once, before anything else, and any such
// throw comes back as BTC_PARAMETER_INVALID naming the parameter, with the throw as its cause: never raw, and never
// after the key was used.
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { buildDeposit, hex, spySigner, userKey } from "../test/fixtures.js";
import { isBitcoinError } from "./errors.js";
import {
  createHtlcActions,
  getUserScripts,
  parseHtlcLeaves,
  signHtlcPsbt,
  signHtlcRefund,
  verifyHtlcPsbt,
} from "./index.js";

const userPublicKey = hex(userKey.publicKey);
const deposit = buildDeposit();
const boom = new Error("boom");
const ECC_PATHS = [
  "ecc",
  "ecc.isPoint",
  "ecc.isXOnlyPoint",
  "ecc.xOnlyPointAddTweak",
  "ecc.verify",
  "ecc.verifySchnorr",
];

/** A structural copy of plain objects and arrays (functions, bytes, bigints and class instances kept as they are). */
function clone<T>(value: T): T {
  if (Array.isArray(value)) return value.map(clone) as T;
  if (typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clone(v)])) as T;
  return value;
}

/** `parameters` with the value at `path` replaced by what `tamper` makes of its parent and key. */
function tampered<T extends object>(
  parameters: T,
  path: string,
  tamper: (parent: object, key: string) => void,
): T {
  const copy = clone(parameters);
  const keys = path.split(".");
  let parent: Record<string, unknown> = copy as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
  tamper(parent, keys.at(-1)!);
  return copy;
}

const throwingGetter = (parent: object, key: string) =>
  Object.defineProperty(parent, key, {
    get: () => {
      throw boom;
    },
    enumerable: true,
    configurable: true,
  });
const revokedProxy = (parent: object, key: string) => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  (parent as Record<string, unknown>)[key] = proxy;
};
const throwingFunction = (parent: object, key: string) => {
  (parent as Record<string, unknown>)[key] = () => {
    throw boom;
  };
};

/** The error `run` throws or rejects with; fails when it succeeds. */
async function refusal(run: () => unknown) {
  let error: unknown;
  try {
    await run();
  } catch (e) {
    error = e;
  }
  expect(error, "the call succeeded").toBeDefined();
  return error;
}

function expectCoded(error: unknown, parameter: string, cause: unknown) {
  expect(isBitcoinError(error, "BTC_PARAMETER_INVALID"), String(error)).toBe(true);
  const coded = error as { details: { parameter: string }; cause: unknown };
  expect(coded.details.parameter).toBe(parameter);
  if (cause !== undefined) expect(coded.cause).toBe(cause);
}

const verifyParameters = () => ({
  ecc: { ...ecc },
  intent: deposit.intent,
  quote: deposit.quote,
  userPublicKey,
  policy: { maxFeeLots: 50_000n },
  nowMs: Date.now(),
});
const VERIFY_PATHS = [
  ...ECC_PATHS,
  "intent",
  "intent.approvalMechanism",
  "intent.deadlineSecs",
  "intent.secretHash",
  "intent.paramsToSign",
  "intent.paramsToSign.psbt",
  "intent.paramsToSign.inputs",
  "intent.paramsToSign.inputs.0",
  "quote",
  "quote.sourceAmountLots",
  "userPublicKey",
  "policy",
  "policy.maxFeeLots",
  "nowMs",
];
/** Paths whose value is an object: a revoked proxy stands in for it. */
const OBJECT_PATHS = new Set([
  "ecc",
  "intent",
  "intent.paramsToSign",
  "intent.paramsToSign.inputs",
  "quote",
  "policy",
]);

describe("verifyHtlcPsbt and signHtlcPsbt: a parameter that throws when read is BTC_PARAMETER_INVALID", () => {
  for (const path of VERIFY_PATHS) {
    it(`a getter that throws on ${path}`, async () => {
      const parameters = tampered(verifyParameters(), path, throwingGetter);
      // The list of input indexes is copied in one read: its item's throw names the list.
      const name = path.replace(/\.0$/, "");
      expectCoded(await refusal(() => verifyHtlcPsbt(parameters)), name, boom);
      const signer = spySigner();
      const signing = tampered({ ...verifyParameters(), signer }, path, throwingGetter);
      expectCoded(await refusal(() => signHtlcPsbt(signing)), name, boom);
      expect(signer.uses).toBe(0);
    });
  }
  for (const path of OBJECT_PATHS) {
    it(`a revoked proxy as ${path}`, async () => {
      const parameters = tampered(verifyParameters(), path, revokedProxy);
      expectCoded(await refusal(() => verifyHtlcPsbt(parameters)), path, undefined);
    });
  }
  for (const path of ["signal", "alwaysCheckSignatures", "signer"]) {
    it(`signHtlcPsbt: a getter that throws on ${path}`, async () => {
      const signer = spySigner();
      const parameters = tampered(
        { ...verifyParameters(), signer, alwaysCheckSignatures: true },
        path,
        throwingGetter,
      );
      const error = await refusal(() => signHtlcPsbt(parameters));
      // The signer itself keeps its own code (readSigner): reading it failed.
      if (path === "signer") expect(isBitcoinError(error)).toBe(true);
      else expectCoded(error, path, boom);
      expect(signer.uses).toBe(0);
    });
  }
  for (const name of ["isPoint", "xOnlyPointAddTweak"]) {
    it(`an ecc backend whose ${name} throws when called`, async () => {
      const parameters = tampered(verifyParameters(), `ecc.${name}`, throwingFunction);
      expectCoded(await refusal(() => verifyHtlcPsbt(parameters)), `ecc.${name}`, boom);
    });
  }
  it("no ecc backend, or one without its functions", async () => {
    for (const backend of [undefined, null, {}, { ...ecc, verifySchnorr: "no" }]) {
      const error = await refusal(() => verifyHtlcPsbt({ ...verifyParameters(), ecc: backend as never }));
      expect(isBitcoinError(error, "BTC_PARAMETER_INVALID"), String(error)).toBe(true);
    }
  });
});

describe("signHtlcRefund, getUserScripts, createHtlcActions: the same for their parameters", () => {
  const refundParameters = async () => {
    const { psbt } = await signHtlcPsbt({ ...verifyParameters(), signer: userKey });
    return { ecc: { ...ecc }, depositPsbt: psbt, userPublicKey, feeLots: 300n, destinationScript: undefined };
  };
  for (const path of [...ECC_PATHS, "depositPsbt", "userPublicKey", "feeLots", "destinationScript"]) {
    it(`signHtlcRefund: a getter that throws on ${path}`, async () => {
      const signer = spySigner();
      const parameters = tampered({ ...(await refundParameters()), signer }, path, throwingGetter);
      expectCoded(await refusal(() => signHtlcRefund(parameters)), path, boom);
      expect(signer.uses).toBe(0);
    });
  }
  for (const path of [...ECC_PATHS, "publicKey"]) {
    it(`getUserScripts: a getter that throws on ${path}`, async () => {
      const parameters = tampered({ ecc: { ...ecc }, publicKey: userPublicKey }, path, throwingGetter);
      expectCoded(await refusal(() => getUserScripts(parameters)), path, boom);
    });
  }
  for (const path of [...ECC_PATHS, "policy"]) {
    it(`createHtlcActions: a getter that throws on ${path}`, async () => {
      const parameters = tampered({ ecc: { ...ecc }, policy: {} }, path, throwingGetter);
      expectCoded(await refusal(() => createHtlcActions(parameters)), path, boom);
    });
  }
  it("createNodeHtlcActions: a getter that throws on policy, or a revoked proxy as its parameters", async () => {
    const { createNodeHtlcActions } = await import("./node.js");
    const parameters = tampered({ policy: {} }, "policy", throwingGetter);
    expectCoded(await refusal(() => createNodeHtlcActions(parameters)), "policy", boom);
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expectCoded(await refusal(() => createNodeHtlcActions(proxy)), "parameters", undefined);
  });
  it("createHtlcActions' bound functions read their parameters like the unbound ones", async () => {
    const actions = createHtlcActions({ ecc });
    const { ecc: _e, policy: _p, ...rest } = verifyParameters();
    const parameters = tampered(rest, "intent.paramsToSign", throwingGetter);
    expectCoded(await refusal(() => actions.verify(parameters)), "intent.paramsToSign", boom);
    const withQuote = tampered({ ...rest, signer: userKey }, "quote", throwingGetter);
    expectCoded(await refusal(() => actions.sign(withQuote)), "quote", boom);
  });
  it("parseHtlcLeaves, which throws nothing, answers null for leaves it cannot read", () => {
    const leaves = () => ({ claim: deposit.leaves.claim, refund: deposit.leaves.refund });
    expect(parseHtlcLeaves(leaves())).not.toBeNull();
    expect(parseHtlcLeaves(tampered(leaves(), "claim", throwingGetter))).toBeNull();
    expect(parseHtlcLeaves(tampered(leaves(), "refund", revokedProxy))).toBeNull();
  });
});
