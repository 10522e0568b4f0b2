export { SANDBOX_NETWORKS } from "./config/networks.js";
export { DEFAULT_PRICES, DEFAULT_STABLECOINS, type Price, type PriceTable } from "./config/prices.js";
export {
  type DatabaseError,
  type DatabaseErrorCode,
  type DatabaseErrorDetails,
  isDatabaseError,
  redactDatabaseUrl,
} from "./db/databaseError.js";
export { createOpenApiDocument } from "./http/createOpenApiDocument.js";
export type { PublicKeyConfig } from "./http/importSigningKey.js";
export {
  type ChainLeg,
  type Clock,
  type Json,
  LEG_REJECTION_CODES,
  type LegContext,
  type LegIntent,
  LegRejection,
  type LegRejectionCode,
  type LegToken,
  type NetworkConfig,
  type NetworkType,
  type SubmittedApproval,
} from "./legs/types.js";
export { startSandbox } from "./startSandbox.js";
export type {
  ChainInfo,
  Faults,
  LegFactories,
  LegFactory,
  RateLimit,
  Sandbox,
  SandboxOptions,
} from "./types.js";
