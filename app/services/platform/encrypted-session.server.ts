import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { createCookie, createSession, type CookieOptions, type SessionData, type SessionStorage } from "@remix-run/node";

/**
 * A cookie session whose content is encrypted (AES-256-GCM), not only signed (issue 9): the
 * cookie carries the member's engine tokens and account, which must not be readable by whoever
 * sees the cookie (a shared computer's profile, a log, a proxy). The keys derive from
 * `SESSION_SECRET`'s secrets: the first encrypts, all decrypt (rotation). A cookie that does not
 * decrypt is an empty session. The cookie stays signed too.
 */
export function createEncryptedCookieSessionStorage(options: CookieOptions & { name: string; secrets: string[] }): SessionStorage {
  if (!options.secrets.length) throw new Error("an encrypted session needs at least one secret");
  const keys = options.secrets.map((secret) => createHash("sha256").update(`meridian session encryption\u0000${secret}`).digest());
  const cookie = createCookie(options.name, options);
  return {
    async getSession(cookieHeader, parseOptions) {
      const value = cookieHeader ? await cookie.parse(cookieHeader, parseOptions) : null;
      return createSession(typeof value === "string" ? (decrypt(value, keys) ?? {}) : {});
    },
    async commitSession(session, serializeOptions) {
      const serialized = await cookie.serialize(encrypt(session.data, keys[0]!), serializeOptions);
      if (serialized.length > 4096) throw new Error(`Cookie length will exceed browser maximum. Length: ${serialized.length}`);
      return serialized;
    },
    async destroySession(_session, serializeOptions) {
      return cookie.serialize("", { ...serializeOptions, maxAge: undefined, expires: new Date(0) });
    },
  };
}

/** iv (12 bytes) ‖ tag (16) ‖ ciphertext, base64url. */
export function encrypt(data: SessionData, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(data), "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

export function decrypt(text: string, keys: Buffer[]): SessionData | null {
  const raw = Buffer.from(text, "base64url");
  if (raw.length < 29) return null;
  for (const key of keys) {
    try {
      const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      const json = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
      const data = JSON.parse(json) as unknown;
      return data && typeof data === "object" ? (data as SessionData) : null;
    } catch {
      // another key, or not ours
    }
  }
  return null;
}
