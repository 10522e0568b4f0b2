import { address, networks } from "bitcoinjs-lib";

/** The regtest address of an output script. */
export function addressOfScript(script: Uint8Array): string {
  return address.fromOutputScript(script, networks.regtest);
}
