// Every constant of the package (constants.ts holds nothing else; the export snapshot test lists them).
export * from "./constants.js";
export * from "./entries/common.js";
export * from "./entries/tronAddresses.js";
export {
  type GetPermit2WitnessTypeStringErrorType,
  type GetPermit2WitnessTypeStringParameters,
  type GetPermit2WitnessTypeStringReturnType,
  getPermit2WitnessTypeString,
} from "./getPermit2WitnessTypeString.js";
export type { Permit2ChainType, Permit2Domain, Permit2Message, Permit2WitnessValues } from "./types.js";
