// Showing an address: EIP-55 checksummed, shortened where space is short. keccak from
// @noble/hashes (a few KB) so pages need not load a chain SDK to print an address.
import { keccak_256 } from "@noble/hashes/sha3";

/** EIP-55 mixed-case checksum of a 0x + 40 hex address (any case in, checksummed out). */
export function checksumAddress(address: string): `0x${string}` {
  const hex = address.slice(2).toLowerCase();
  const hash = keccak_256(new TextEncoder().encode(hex));
  let out = "0x";
  for (let i = 0; i < hex.length; i++) {
    const nibble = (hash[i >> 1] >> (i % 2 === 0 ? 4 : 0)) & 0x0f;
    out += nibble >= 8 ? hex[i].toUpperCase() : hex[i];
  }
  return out as `0x${string}`;
}

/** 0x1234…abcd, from the checksummed form. */
export function shortChecksummedAddress(address: string): string {
  const checksummed = checksumAddress(address);
  return `${checksummed.slice(0, 6)}…${checksummed.slice(-4)}`;
}
