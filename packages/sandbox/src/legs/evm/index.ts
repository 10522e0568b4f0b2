export { createEvmLeg } from "./createEvmLeg.js";
export { createTronLeg } from "./createTronLeg.js";
export { formatTronAddress } from "./formatTronAddress.js";
export { parseTronAddress } from "./parseTronAddress.js";
