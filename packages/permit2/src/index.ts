export {
  CANONICAL_PERMIT2_ADDRESS,
  DEFAULT_MAX_DEADLINE_SECS,
  PERMIT2_PRIMARY_TYPE,
  PERMIT2_WITNESS_TYPE_STUB,
  TRON_CHAIN_ID_MASK,
} from "./constants.js";
export * from "./entries/common.js";
export * from "./entries/tronAddresses.js";
export {
  type GetPermit2WitnessTypeStringErrorType,
  type GetPermit2WitnessTypeStringParameters,
  type GetPermit2WitnessTypeStringReturnType,
  getPermit2WitnessTypeString,
} from "./getPermit2WitnessTypeString.js";
export type { Permit2ChainType, Permit2Domain, Permit2Message, Permit2WitnessValues } from "./types.js";
