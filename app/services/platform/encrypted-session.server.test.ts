import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createEncryptedCookieSessionStorage, decrypt, encrypt } from "./encrypted-session.server";

const options = (secrets: string[]) => ({ name: "__session", httpOnly: true, sameSite: "lax" as const, path: "/", secrets });

describe("encrypted session cookie (issue 9)", () => {
  it("keeps the tokens and the account unreadable in the cookie, and reads them back", async () => {
    const storage = createEncryptedCookieSessionStorage(options(["first-secret-0123456789abcdef"]));
    const session = await storage.getSession(null);
    session.set("auth", { accessToken: "engine-access-token-abc", member: { email: "alice@example.com" } });
    const header = await storage.commitSession(session);
    const value = decodeURIComponent(header.split(";")[0]!.split("=").slice(1).join("="));
    // Neither in clear nor in base64 of the JSON.
    for (const text of [value, Buffer.from(value.split(".")[0]!, "base64").toString("utf8")]) {
      expect(text).not.toContain("alice@example.com");
      expect(text).not.toContain("engine-access-token-abc");
    }
    const back = await storage.getSession(header.split(";")[0]);
    expect(back.get("auth")).toEqual({ accessToken: "engine-access-token-abc", member: { email: "alice@example.com" } });
  });

  it("reads cookies of a previous secret after rotation, and nothing forged or garbled", async () => {
    const old = createEncryptedCookieSessionStorage(options(["old-secret-0123456789abcdef"]));
    const session = await old.getSession(null);
    session.set("inviteCode", "ABCD1234");
    const cookie = (await old.commitSession(session)).split(";")[0]!;
    const rotated = createEncryptedCookieSessionStorage(options(["new-secret-0123456789abcdef", "old-secret-0123456789abcdef"]));
    expect((await rotated.getSession(cookie)).get("inviteCode")).toBe("ABCD1234");
    const other = createEncryptedCookieSessionStorage(options(["someone-else-0123456789abcdef"]));
    expect((await other.getSession(cookie)).get("inviteCode")).toBeUndefined();
    const key = randomBytes(32);
    const text = encrypt({ a: 1 }, key);
    expect(decrypt(text, [key])).toEqual({ a: 1 });
    expect(decrypt(text.slice(0, -2) + (text.endsWith("A") ? "BB" : "AA"), [key])).toBeNull();
    expect(decrypt("short", [key])).toBeNull();
  });
});
