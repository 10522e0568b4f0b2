export { createEvmLeg } from "./createEvmLeg.js";
export { createTronLeg } from "./createTronLeg.js";
export { formatTronAddress, parseTronAddress } from "./tronAddress.js";
