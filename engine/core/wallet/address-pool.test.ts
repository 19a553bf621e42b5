import { generateKeyPairSync } from "node:crypto";
import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import { describe, expect, it } from "vitest";
import { isValidAddress, solanaAddress } from "./address-formats";
import { isPooledFormat, poolAddressProblem, poolFileLines } from "./address-pool";

const keyPairAddress = () => solanaAddress(Buffer.from(generateKeyPairSync("ed25519").publicKey.export({ format: "jwk" }).x!, "base64url"));

describe("what may go into a deposit-address pool (decision 042)", () => {
  it("takes only the chains without public derivation", () => {
    expect(isPooledFormat("solana")).toBe(true);
    for (const format of ["bitcoin", "evm", "tron", "dogecoin", "xrp"] as const) expect(isPooledFormat(format)).toBe(false);
  });

  it("accepts the public key of an ed25519 key pair, as custody makes them", () => {
    for (let i = 0; i < 20; i++) {
      const address = keyPairAddress();
      expect(isValidAddress("solana", address)).toBe(true);
      expect(poolAddressProblem("solana", address)).toBeNull();
    }
    // A mint (a key pair's address) is a valid key too.
    expect(poolAddressProblem("solana", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v")).toBeNull();
  });

  it("refuses what the withdrawal check refuses: other lengths, other alphabets, other chains", () => {
    for (const address of [
      "1111111111111111111111111111111", // 31 bytes
      "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt10", // 0 is not base58
      "0x52908400098527886E0F7030069857D2E4169EE7",
      "TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL",
      "",
    ])
      expect(poolAddressProblem("solana", address), address).toMatch(/^not a Solana address/);
  });

  it("refuses addresses no one holds a key of, which a withdrawal may still send to", () => {
    // The system program (all zeros) and the wrapped-SOL mint: valid addresses, small or mixed order points.
    for (const address of ["11111111111111111111111111111111", "So11111111111111111111111111111111111111112"]) {
      expect(isValidAddress("solana", address)).toBe(true);
      expect(poolAddressProblem("solana", address), address).toMatch(/not a key pair's public key/);
    }
    // A program-derived address is off the curve: find 32 bytes that are not a point.
    let offCurve: Uint8Array | null = null;
    for (let i = 1; !offCurve; i++) {
      const bytes = new Uint8Array(32).fill(i);
      try {
        ed25519.Point.fromBytes(bytes);
      } catch {
        offCurve = bytes;
      }
    }
    const pda = base58.encode(offCurve);
    expect(isValidAddress("solana", pda)).toBe(true);
    expect(poolAddressProblem("solana", pda)).toMatch(/not on the ed25519 curve/);
  });

  it("reads an import file: one address a line, spaces trimmed, blank lines and # comments skipped, numbered as an editor numbers them", () => {
    expect(poolFileLines("# custody batch 7\r\n  AAA  \n\nBBB\n# end\n")).toEqual([
      { line: 2, address: "AAA" },
      { line: 4, address: "BBB" },
    ]);
    expect(poolFileLines("CCC\nDDD", 5001)).toEqual([
      { line: 5001, address: "CCC" },
      { line: 5002, address: "DDD" },
    ]);
    expect(poolFileLines("\n \n#\n")).toEqual([]);
  });
});
