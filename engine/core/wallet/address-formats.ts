import { ripemd160 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { base58, base58xrp, bech32, bech32m, hex, type BytesCoder } from "@scure/base";
import { MAX_DESTINATION_TAG, type AddressFormat } from "./networks";

/**
 * Addresses of each chain, read and written with their checksums (docs/decisions/024). Pure: no
 * I/O. `isValidAddress` is what a withdrawal's address is checked by; the encoders are what the
 * deposit addresses are made with, so both sides use the same rules.
 *
 * - bitcoin: segwit addresses, bech32 for version 0 and bech32m for versions 1 to 16 (BIP173,
 *   BIP350), and legacy base58check P2PKH (version byte 0x00) and P2SH (0x05); mainnet only.
 * - evm: `0x` and 40 hex digits; a mixed-case address must carry its EIP-55 checksum.
 * - tron: base58check of 0x41 and the 20-byte account (`T…`).
 * - dogecoin: base58check P2PKH (0x1e, `D…`) and P2SH (0x16).
 * - xrp: a classic address, base58check in the Ripple alphabet of 0x00 and the account (`r…`);
 *   the destination tag is a separate field (`isValidDestinationTag`).
 * - solana: base58 of a 32-byte public key. Solana addresses carry no checksum, so only the
 *   alphabet and the length can be checked.
 */

const sha256d = (data: Uint8Array) => sha256(sha256(data));

export const hash160 = (data: Uint8Array): Uint8Array => ripemd160(sha256(data));

/** A base58check coder in an alphabet (the checksum is the first 4 bytes of double SHA-256). */
function checked(alphabet: BytesCoder): BytesCoder {
  return {
    encode(payload) {
      const sum = sha256d(payload).subarray(0, 4);
      const all = new Uint8Array(payload.length + 4);
      all.set(payload);
      all.set(sum, payload.length);
      return alphabet.encode(all);
    },
    decode(text) {
      const all = alphabet.decode(text);
      if (all.length < 5) throw new Error("too short");
      const payload = all.subarray(0, -4);
      const sum = sha256d(payload);
      for (let i = 0; i < 4; i++) if (sum[i] !== all[all.length - 4 + i]) throw new Error("bad checksum");
      return payload;
    },
  };
}

const base58check = checked(base58);
const base58checkXrp = checked(base58xrp);

/** A versioned 20-byte payload of a base58check address, or null when the text is not one. */
function decodeVersioned(coder: BytesCoder, text: string): { version: number; hash: Uint8Array } | null {
  if (text.length < 25 || text.length > 35) return null;
  try {
    const payload = coder.decode(text);
    if (payload.length !== 21) return null;
    return { version: payload[0]!, hash: payload.subarray(1) };
  } catch {
    return null;
  }
}

function versioned(coder: BytesCoder, version: number, hash: Uint8Array): string {
  if (hash.length !== 20) throw new Error("an account hash has 20 bytes");
  const payload = new Uint8Array(21);
  payload[0] = version;
  payload.set(hash, 1);
  return coder.encode(payload);
}

const BITCOIN_HRP = "bc";
const BITCOIN_P2PKH = 0x00;
const BITCOIN_P2SH = 0x05;
const TRON_PREFIX = 0x41;
const DOGE_P2PKH = 0x1e;
const DOGE_P2SH = 0x16;
const XRP_ACCOUNT = 0x00;

/** A mainnet segwit address (BIP173 / BIP350): the witness version and program, or null. */
export function decodeSegwit(address: string): { version: number; program: Uint8Array } | null {
  if (address.length > 90) return null;
  // One case only: an address written in mixed case is invalid (BIP173).
  if (address !== address.toLowerCase() && address !== address.toUpperCase()) return null;
  const lower = address.toLowerCase() as `${string}1${string}`;
  for (const [coder, isBech32m] of [
    [bech32, false],
    [bech32m, true],
  ] as const) {
    let decoded;
    try {
      decoded = coder.decode(lower, 90);
    } catch {
      continue;
    }
    if (decoded.prefix !== BITCOIN_HRP || decoded.words.length === 0) return null;
    const version = decoded.words[0]!;
    if (version > 16) return null;
    // Version 0 uses bech32, every later version bech32m (BIP350).
    if ((version === 0) === isBech32m) return null;
    let program: Uint8Array;
    try {
      program = coder.fromWords(decoded.words.slice(1));
    } catch {
      return null; // padding of more than 4 bits or non-zero padding
    }
    if (program.length < 2 || program.length > 40) return null;
    if (version === 0 && program.length !== 20 && program.length !== 32) return null;
    return { version, program };
  }
  return null;
}

function isBitcoinAddress(address: string): boolean {
  if (/^(bc1|BC1)/.test(address)) return decodeSegwit(address) !== null;
  const legacy = decodeVersioned(base58check, address);
  return legacy !== null && (legacy.version === BITCOIN_P2PKH || legacy.version === BITCOIN_P2SH);
}

/** The EIP-55 spelling of a 20-byte account: a hex digit is upper case where the keccak-256 of the lower-case address has a nibble of 8 or more. */
export function toChecksumAddress(account: Uint8Array | string): string {
  const lower = typeof account === "string" ? account.replace(/^0x/i, "").toLowerCase() : hex.encode(account);
  if (!/^[0-9a-f]{40}$/.test(lower)) throw new Error("an EVM account has 20 bytes");
  const hash = keccak_256(new TextEncoder().encode(lower));
  let out = "0x";
  for (let i = 0; i < 40; i++) {
    const nibble = (hash[i >> 1]! >> (i % 2 === 0 ? 4 : 0)) & 0x0f;
    out += nibble >= 8 ? lower[i]!.toUpperCase() : lower[i]!;
  }
  return out;
}

function isEvmAddress(address: string): boolean {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return false;
  const digits = address.slice(2);
  // All lower or all upper case carries no checksum (EIP-55); mixed case must be the checksum.
  if (digits === digits.toLowerCase() || digits === digits.toUpperCase()) return true;
  return toChecksumAddress(digits) === address;
}

function isSolanaAddress(address: string): boolean {
  if (address.length < 32 || address.length > 44) return false;
  try {
    return base58.decode(address).length === 32;
  } catch {
    return false;
  }
}

/** Whether a withdrawal address is a valid mainnet address of a format, its checksum included. */
export function isValidAddress(format: AddressFormat, address: string): boolean {
  switch (format) {
    case "bitcoin":
      return isBitcoinAddress(address);
    case "evm":
      return isEvmAddress(address);
    case "tron":
      return address.startsWith("T") && decodeVersioned(base58check, address)?.version === TRON_PREFIX;
    case "dogecoin": {
      const version = decodeVersioned(base58check, address)?.version;
      return version === DOGE_P2PKH || version === DOGE_P2SH;
    }
    case "xrp":
      return address.startsWith("r") && decodeVersioned(base58checkXrp, address)?.version === XRP_ACCOUNT;
    case "solana":
      return isSolanaAddress(address);
  }
}

/**
 * The one spelling of a valid address, for telling two spellings of one destination apart (the
 * address book, decision 029): an EVM address with its EIP-55 checksum, a segwit address in lower
 * case (BIP173 allows either case); base58 addresses are case-sensitive and stay as they are.
 */
export function canonicalAddress(format: AddressFormat, address: string): string {
  if (format === "evm") return toChecksumAddress(address);
  if (format === "bitcoin" && /^bc1/i.test(address)) return address.toLowerCase();
  return address;
}

/** Whether a destination tag (as typed) is an unsigned 32-bit integer without leading zeros. */
export function isValidDestinationTag(tag: string): boolean {
  return /^(0|[1-9]\d{0,9})$/.test(tag) && Number(tag) <= MAX_DESTINATION_TAG;
}

// Encoders of the deposit addresses (docs/decisions/024).

/** A P2WPKH address (`bc1q…`) of a compressed public key. */
export function bitcoinP2wpkh(compressedPublicKey: Uint8Array): string {
  return bech32.encode(BITCOIN_HRP, [0, ...bech32.toWords(hash160(compressedPublicKey))]);
}

/** A Dogecoin P2PKH address (`D…`) of a compressed public key. */
export function dogecoinP2pkh(compressedPublicKey: Uint8Array): string {
  return versioned(base58check, DOGE_P2PKH, hash160(compressedPublicKey));
}

/** The 20-byte account of an uncompressed secp256k1 public key (65 bytes, 0x04…), as Ethereum and TRON make it. */
export function keccakAccount(uncompressedPublicKey: Uint8Array): Uint8Array {
  if (uncompressedPublicKey.length !== 65 || uncompressedPublicKey[0] !== 0x04) throw new Error("an uncompressed public key has 65 bytes");
  return keccak_256(uncompressedPublicKey.subarray(1)).subarray(12);
}

/** A TRON address (`T…`) of a 20-byte account. */
export function tronAddress(account: Uint8Array): string {
  return versioned(base58check, TRON_PREFIX, account);
}

/** An XRP classic address (`r…`) of a compressed public key. */
export function xrpAddress(compressedPublicKey: Uint8Array): string {
  return versioned(base58checkXrp, XRP_ACCOUNT, hash160(compressedPublicKey));
}

/** A Solana address: base58 of a 32-byte ed25519 public key (no checksum, no hash). */
export function solanaAddress(publicKey: Uint8Array): string {
  if (publicKey.length !== 32) throw new Error("an ed25519 public key has 32 bytes");
  return base58.encode(publicKey);
}
