import { buildSignerPackages } from "./buildSignerPackages.js";

/** Once per run, before any test file: the signer packages' `dist` (what the page and the bundle report use). */
export default function setup(): void {
  buildSignerPackages();
}
