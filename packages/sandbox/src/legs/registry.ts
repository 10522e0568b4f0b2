import type { LegFactories, LegFactory, NetworkType } from "./types.js";

/** Which factory serves a network type. */
const KIND_BY_TYPE: Record<NetworkType, keyof LegFactories> = {
  EVM: "evm",
  TRON: "tron",
  BITCOIN: "bitcoin",
  SOLANA: "solana",
};

function pick(mod: Record<string, unknown>, name: string): LegFactory {
  const factory = mod[name];
  if (typeof factory !== "function") throw new Error(`the leg module does not export ${name}`);
  return factory as LegFactory;
}

async function loadBuiltIn(kind: keyof LegFactories): Promise<LegFactory> {
  // Dynamic imports: a leg's module (and its engine libraries) is loaded only when a network needs it.
  switch (kind) {
    case "evm":
      return pick(await import("./evm/index.js"), "createEvmLeg");
    case "tron":
      return pick(await import("./evm/index.js"), "createTronLeg");
    case "bitcoin":
      return pick(await import("./bitcoin/index.js"), "createBitcoinLeg");
    case "solana":
      return pick(await import("./solana/index.js"), "createSolanaLeg");
  }
}

/**
 * The leg factory for a network type: the injected one when given, else the sandbox's own leg module
 * (`createEvmLeg`, `createTronLeg` from `./evm`, `createBitcoinLeg` from `./bitcoin`, `createSolanaLeg` from `./solana`).
 */
export async function resolveLegFactory({
  type,
  injected,
}: {
  type: NetworkType;
  injected: LegFactories | LegFactory | undefined;
}): Promise<LegFactory> {
  if (typeof injected === "function") return injected;
  const kind = KIND_BY_TYPE[type];
  return injected?.[kind] ?? loadBuiltIn(kind);
}
