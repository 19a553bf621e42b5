import { secp256k1 } from "@noble/curves/secp256k1.js";
import { HDKey } from "@scure/bip32";
import { hex } from "@scure/base";
import { bitcoinP2wpkh, dogecoinP2pkh, hash160, isValidAddress, keccakAccount, toChecksumAddress, tronAddress, xrpAddress } from "./address-formats";
import { MAX_DESTINATION_TAG, type AddressFormat } from "./networks";

/**
 * Deposit addresses derived from watch-only extended public keys (docs/decisions/024): the
 * engine holds one xpub per chain, the private keys stay in custody. A member's address on a
 * chain is the xpub's non-hardened child `0/{member id}` (the external chain of BIP44), so it
 * can be derived again at any time and nothing random has to be kept. XRP takes every deposit at
 * one exchange address, told apart by the member's destination tag. Solana (ed25519) has no
 * public derivation: its deposits stay off until a custody adapter hands out addresses.
 */

/** BIP32 test vector 1's master key (public): the default of a fresh machine or a demo. Its private key is published. */
export const PUBLIC_TEST_XPUB = "xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8";

/** The chains whose deposit addresses are derived from an xpub. */
export type DerivedFormat = Extract<AddressFormat, "bitcoin" | "evm" | "tron" | "dogecoin">;

/** Destination tags start here, so a tag typed as 0 or 1 by mistake names nobody. */
export const DESTINATION_TAG_OFFSET = 100_000;

/** The deposit configuration: one xpub per derived chain, and the exchange's XRP address. */
export interface DepositKeys {
  xpubs: Record<DerivedFormat, string>;
  xrpAddress: string;
}

/** Reads an extended public key; a private one (xprv) is refused, the engine must never hold one. */
export function parseWatchOnlyKey(xpub: string): HDKey {
  if (!/^xpub[1-9A-HJ-NP-Za-km-z]{100,112}$/.test(xpub)) throw new Error("must be an extended public key (xpub…)");
  const key = HDKey.fromExtendedKey(xpub);
  if (key.privateKey) throw new Error("must be an extended public key (xpub…), never a private one");
  return key;
}

/** A short, public name of an xpub (the hex of its BIP32 identifier's first 4 bytes), stored beside each address it made. */
export function keyFingerprint(xpub: string): string {
  return hex.encode(hash160(parseWatchOnlyKey(xpub).publicKey!).subarray(0, 4));
}

/** The derivation index of a member: its numeric id, which BIP32 takes below 2^31 (non-hardened). */
export function derivationIndex(memberId: string): number {
  if (!/^[1-9]\d{0,9}$/.test(memberId) || Number(memberId) >= 0x8000_0000) throw new Error(`member id ${memberId} cannot be a derivation index`);
  return Number(memberId);
}

/** The member's XRP destination tag: its id plus DESTINATION_TAG_OFFSET, stable for ever. */
export function destinationTag(memberId: string): number {
  const tag = derivationIndex(memberId) + DESTINATION_TAG_OFFSET;
  if (tag > MAX_DESTINATION_TAG) throw new Error(`member id ${memberId} has no destination tag`);
  return tag;
}

/** The public key at `0/{index}` below an xpub (compressed, 33 bytes). */
export function childPublicKey(xpub: string, index: number): Uint8Array {
  return parseWatchOnlyKey(xpub).deriveChild(0).deriveChild(index).publicKey!;
}

/** The address of the child `0/{index}` of an xpub, in a chain's format. */
export function deriveAddress(format: DerivedFormat, xpub: string, index: number): string {
  const publicKey = childPublicKey(xpub, index);
  switch (format) {
    case "bitcoin":
      return bitcoinP2wpkh(publicKey);
    case "dogecoin":
      return dogecoinP2pkh(publicKey);
    case "evm":
      return toChecksumAddress(keccakAccount(secp256k1.Point.fromBytes(publicKey).toBytes(false)));
    case "tron":
      return tronAddress(keccakAccount(secp256k1.Point.fromBytes(publicKey).toBytes(false)));
  }
}

/** The default XRP address: the test xpub's child `0/0` (as public as the key). */
export const PUBLIC_TEST_XRP_ADDRESS = xrpAddress(childPublicKey(PUBLIC_TEST_XPUB, 0));

/** Deposit keys of the public test key, for a fresh machine, a demo and the tests. */
export const PUBLIC_TEST_DEPOSIT_KEYS: DepositKeys = {
  xpubs: { bitcoin: PUBLIC_TEST_XPUB, evm: PUBLIC_TEST_XPUB, tron: PUBLIC_TEST_XPUB, dogecoin: PUBLIC_TEST_XPUB },
  xrpAddress: PUBLIC_TEST_XRP_ADDRESS,
};

/** Checks a configuration: each xpub is public, the XRP address valid. Throws naming the first wrong part. */
export function checkDepositKeys(keys: DepositKeys): void {
  for (const [format, xpub] of Object.entries(keys.xpubs)) {
    try {
      parseWatchOnlyKey(xpub);
    } catch (error) {
      throw new Error(`${format} xpub: ${(error as Error).message}`);
    }
  }
  if (!isValidAddress("xrp", keys.xrpAddress)) throw new Error("XRP deposit address: not a valid classic address (r…)");
}

export function isDerivedFormat(format: AddressFormat): format is DerivedFormat {
  return format === "bitcoin" || format === "evm" || format === "tron" || format === "dogecoin";
}
