/** The key under which a token is looked up: 0x-hex addresses compare case-insensitively, others exactly. */
export function toTokenKey(networkId: number, address: string): string {
  return `${networkId}:${address.startsWith("0x") ? address.toLowerCase() : address}`;
}
