import { describe, expect, it } from "vitest";
import { canonicalAddress, isValidAddress, isValidDestinationTag, toChecksumAddress } from "./address-formats";
import type { AddressFormat } from "./networks";

/** Changes one character of an address to another of the same alphabet and case: the checksum must catch it. */
function mutate(address: string, at: number, alphabet: string): string {
  const c = address[at]!;
  const pool = c === c.toUpperCase() ? alphabet.toUpperCase() : alphabet;
  const replacement = [...pool].find((x) => x !== c && (c === c.toUpperCase() ? x === x.toUpperCase() : x === x.toLowerCase()))!;
  return address.slice(0, at) + replacement + address.slice(at + 1);
}
const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const XRP58 = "rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz";
const BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";

describe("bitcoin addresses", () => {
  // BIP173 and BIP350 valid mainnet vectors, and well-known legacy addresses.
  const valid = [
    "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4",
    "bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3",
    "bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y",
    "BC1SW50QGDZ25J",
    "bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs",
    "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0",
    "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa",
    "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy",
  ];
  it.each(valid)("accepts %s", (address) => expect(isValidAddress("bitcoin", address)).toBe(true));

  // BIP350's invalid vectors (mainnet ones, and testnet ones: a mainnet exchange refuses those too).
  const invalid = [
    "tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut", // invalid human-readable part
    "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd", // bech32 instead of bech32m
    "BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL", // bech32 instead of bech32m
    "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh", // bech32m instead of bech32
    "bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4", // invalid character
    "BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R", // invalid witness version
    "bc1pw5dgrnzv", // program of 1 byte
    "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav", // program of 41 bytes
    "BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P", // version 0 with a 16-byte program
    "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf", // zero padding of more than 4 bits
    "bc1gmk9yu", // empty data
    "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7", // testnet
    "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3T4", // mixed case
    "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb", // legacy, checksum broken
    "mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn", // testnet P2PKH (version 0x6f)
    "",
  ];
  it.each(invalid)("refuses %s", (address) => expect(isValidAddress("bitcoin", address)).toBe(false));

  it("refuses every one-character change of a segwit address (the checksum is checked)", () => {
    const address = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
    for (let at = 4; at < address.length; at++) expect(isValidAddress("bitcoin", mutate(address, at, BECH32))).toBe(false);
  });
});

describe("EVM addresses (EIP-55)", () => {
  const examples = [
    "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
    "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
    "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
  ];
  it.each(examples)("checksums and accepts EIP-55's example %s", (address) => {
    expect(toChecksumAddress(address.toLowerCase())).toBe(address);
    expect(isValidAddress("evm", address)).toBe(true);
  });
  it("accepts all lower or all upper case (no checksum) and refuses a mixed case that is not the checksum", () => {
    expect(isValidAddress("evm", "0x52908400098527886E0F7030069857D2E4169EE7")).toBe(true);
    expect(isValidAddress("evm", "0xde709f2102306220921060314715629080e2fb77")).toBe(true);
    expect(isValidAddress("evm", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD")).toBe(false);
    expect(isValidAddress("evm", "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")).toBe(false);
  });
  it("refuses wrong shapes", () => {
    for (const address of [
      "5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
      "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA",
      "0xZaAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    ]) {
      expect(isValidAddress("evm", address)).toBe(false);
    }
  });
});

const known: [AddressFormat, string][] = [
  ["tron", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"], // USDT's TRC20 contract
  ["dogecoin", "DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L"],
  ["xrp", "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh"], // the genesis account
  ["xrp", "rrrrrrrrrrrrrrrrrrrrrhoLvTp"], // account zero
  ["xrp", "rrrrrrrrrrrrrrrrrrrrBZbvji"], // account one
];

describe("base58check addresses (TRON, Dogecoin, XRP)", () => {
  it.each(known)("accepts the %s address %s", (format, address) => expect(isValidAddress(format, address)).toBe(true));
  it.each(known)("refuses every one-character change of the %s address %s", (format, address) => {
    const alphabet = format === "xrp" ? XRP58 : BASE58;
    for (let at = 1; at < address.length; at++) {
      const changed = mutate(address, at, alphabet);
      if (changed !== address) expect(isValidAddress(format, changed), changed).toBe(false);
    }
  });
  it("refuses an address of another chain", () => {
    expect(isValidAddress("tron", "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa")).toBe(false);
    expect(isValidAddress("dogecoin", "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa")).toBe(false);
    expect(isValidAddress("bitcoin", "DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L")).toBe(false);
    // The same 21 bytes in the Bitcoin alphabet are not an XRP address.
    expect(isValidAddress("xrp", "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa")).toBe(false);
  });
});

describe("Solana addresses and XRP destination tags", () => {
  it("accepts base58 of 32 bytes and refuses other lengths or alphabets", () => {
    expect(isValidAddress("solana", "So11111111111111111111111111111111111111112")).toBe(true);
    expect(isValidAddress("solana", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v")).toBe(true);
    expect(isValidAddress("solana", "11111111111111111111111111111111")).toBe(true);
    expect(isValidAddress("solana", "1111111111111111111111111111111")).toBe(false); // 31 bytes
    expect(isValidAddress("solana", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt10")).toBe(false);
  });
  it("takes a destination tag of 0 to 2^32-1", () => {
    for (const tag of ["0", "1", "4294967295"]) expect(isValidDestinationTag(tag)).toBe(true);
    for (const tag of ["4294967296", "-1", "01", "1.5", "", "abc"]) expect(isValidDestinationTag(tag)).toBe(false);
  });
});

describe("one spelling of a destination (the address book)", () => {
  it("writes an EVM address with its checksum and a segwit one in lower case; base58 stays as it is", () => {
    const checksummed = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
    for (const spelling of [checksummed, checksummed.toLowerCase(), `0x${checksummed.slice(2).toUpperCase()}`])
      expect(canonicalAddress("evm", spelling)).toBe(checksummed);
    expect(canonicalAddress("bitcoin", "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4")).toBe("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4");
    expect(canonicalAddress("bitcoin", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2")).toBe("1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2");
    expect(canonicalAddress("tron", "TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL")).toBe("TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL");
  });
});
