import { HDKey } from "@scure/bip32";
import { describe, expect, it } from "vitest";
import { isValidAddress } from "./address-formats";
import {
  checkDepositKeys,
  derivationIndex,
  deriveAddress,
  destinationTag,
  keyFingerprint,
  parseWatchOnlyKey,
  PUBLIC_TEST_DEPOSIT_KEYS,
  PUBLIC_TEST_XPUB,
  PUBLIC_TEST_XRP_ADDRESS,
} from "./deposit-keys";

const XPRV = "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi";

describe("deposit keys", () => {
  it("derives the same address as the private key's child m/0/i (BIP32 public derivation)", () => {
    const fromPrivate = HDKey.fromExtendedKey(XPRV).derive("m/0/7");
    expect(fromPrivate.publicExtendedKey).toBe(parseWatchOnlyKey(PUBLIC_TEST_XPUB).deriveChild(0).deriveChild(7).publicExtendedKey);
  });

  it("makes an address of each chain's format, stable and distinct per index", () => {
    for (const format of ["bitcoin", "evm", "tron", "dogecoin"] as const) {
      const a = deriveAddress(format, PUBLIC_TEST_XPUB, 1);
      expect(isValidAddress(format, a), a).toBe(true);
      expect(deriveAddress(format, PUBLIC_TEST_XPUB, 1)).toBe(a);
      expect(deriveAddress(format, PUBLIC_TEST_XPUB, 2)).not.toBe(a);
    }
    expect(deriveAddress("bitcoin", PUBLIC_TEST_XPUB, 1)).toMatch(/^bc1q/);
    expect(deriveAddress("evm", PUBLIC_TEST_XPUB, 1)).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(deriveAddress("tron", PUBLIC_TEST_XPUB, 1)).toMatch(/^T/);
    expect(deriveAddress("dogecoin", PUBLIC_TEST_XPUB, 1)).toMatch(/^D/);
    expect(isValidAddress("xrp", PUBLIC_TEST_XRP_ADDRESS)).toBe(true);
  });

  it("gives TRON the EVM account's 20 bytes under 0x41", async () => {
    const { base58 } = await import("@scure/base");
    const evm = deriveAddress("evm", PUBLIC_TEST_XPUB, 5).slice(2).toLowerCase();
    const tron = base58.decode(deriveAddress("tron", PUBLIC_TEST_XPUB, 5));
    expect(tron[0]).toBe(0x41);
    expect(Buffer.from(tron.subarray(1, 21)).toString("hex")).toBe(evm);
  });

  it("refuses a private extended key and anything that is not an xpub", () => {
    expect(() => parseWatchOnlyKey(XPRV)).toThrow(/public/);
    expect(() => parseWatchOnlyKey("hello")).toThrow(/public/);
    expect(() => checkDepositKeys({ ...PUBLIC_TEST_DEPOSIT_KEYS, xpubs: { ...PUBLIC_TEST_DEPOSIT_KEYS.xpubs, evm: XPRV } })).toThrow(/evm xpub/);
    expect(() => checkDepositKeys({ ...PUBLIC_TEST_DEPOSIT_KEYS, xrpAddress: "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTt" })).toThrow(/XRP/);
    expect(() => checkDepositKeys(PUBLIC_TEST_DEPOSIT_KEYS)).not.toThrow();
  });

  it("takes member ids below 2^31 as indexes and gives stable destination tags", () => {
    expect(derivationIndex("42")).toBe(42);
    expect(() => derivationIndex("2147483648")).toThrow();
    expect(() => derivationIndex("0")).toThrow();
    expect(destinationTag("42")).toBe(100_042);
    expect(keyFingerprint(PUBLIC_TEST_XPUB)).toBe("3442193e");
  });
});
