import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import { isValidAddress } from "./address-formats";
import type { AddressFormat } from "./networks";

/**
 * Deposit addresses of chains without public derivation come from a pool (decision 042): custody
 * makes the key pairs offline and hands the engine the public addresses only; each is given to one
 * member for good. Solana is the one such chain (ed25519 has no public child derivation, decision
 * 024). Pure: what an address in the pool must be, and how an import file is read.
 */

/** The address formats whose deposit addresses come from a pool rather than an xpub or a tag. */
export const POOLED_FORMATS = ["solana"] as const;
export type PooledFormat = (typeof POOLED_FORMATS)[number];

export function isPooledFormat(format: AddressFormat): format is PooledFormat {
  return (POOLED_FORMATS as readonly string[]).includes(format);
}

/**
 * Why an address may not go into the pool of its format, or null when it may. First the format's
 * own check (`isValidAddress`, the one withdrawals use); then, for Solana, that someone can hold
 * its key: an ed25519 public key of the prime-order group. A program-derived address (off the
 * curve) has no private key, and the curve's small- and mixed-order points (the system program
 * `111…1`, the wrapped-SOL mint) are never a key pair's public key: money sent there is lost.
 */
export function poolAddressProblem(format: PooledFormat, address: string): string | null {
  if (!isValidAddress(format, address)) return "not a Solana address (base58 of 32 bytes)";
  let point;
  try {
    point = ed25519.Point.fromBytes(base58.decode(address));
  } catch {
    return "not on the ed25519 curve (a program-derived address has no key)";
  }
  if (point.isSmallOrder() || !point.isTorsionFree()) return "not a key pair's public key (a small- or mixed-order point)";
  return null;
}

/** One address of an import file, with its line number (1-based, as an editor shows it). */
export interface PoolFileLine {
  line: number;
  address: string;
}

/**
 * The addresses of an import file: one per line, surrounding spaces ignored; blank lines and lines
 * starting with `#` are skipped (custody's comments). `firstLine` numbers the first line of `text`
 * (a part of a longer file).
 */
export function poolFileLines(text: string, firstLine = 1): PoolFileLine[] {
  const lines: PoolFileLine[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const address = raw.trim();
    if (address && !address.startsWith("#")) lines.push({ line: firstLine + i, address });
  });
  return lines;
}
