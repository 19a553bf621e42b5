import { createHash } from "node:crypto";

/**
 * Tokens and verification codes are stored only as SHA-256 digests: a database leak does not
 * hand out sessions or codes. (Passwords use argon2id, which is slow on purpose; tokens are long
 * random values, so a fast digest is enough.)
 */
export function digest(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

/** A verification code is bound to where it was sent and what for. */
export function codeDigest(destination: string, purpose: string, code: string): string {
  return digest(`${destination}\u0000${purpose}\u0000${code}`);
}

/** A six-digit code from a random 32-bit integer (uniform enough: 2^32 is ~4295 times 10^6). */
export function sixDigits(random32: number): string {
  return (random32 % 1_000_000).toString().padStart(6, "0");
}
