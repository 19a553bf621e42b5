import { describe, expect, it } from "vitest";
import { guardActions, isCrossSiteWrite, isUnreadableBodyError, securityHeaders, unreadableFormReason } from "./guards.mjs";

const req = (method: string, headers: Record<string, string>) => ({ method, headers: { host: "exchange.example", ...headers } });

describe("web request guards (issue 9)", () => {
  it("refuses state-changing requests from another site, data requests included", () => {
    expect(isCrossSiteWrite(req("POST", { origin: "https://evil.example" }))).toBe(true);
    expect(isCrossSiteWrite(req("POST", { origin: "null" }))).toBe(true);
    expect(isCrossSiteWrite(req("POST", { "sec-fetch-site": "cross-site" }))).toBe(true);
    expect(isCrossSiteWrite(req("POST", { "sec-fetch-site": "same-site" }))).toBe(true);
    expect(isCrossSiteWrite(req("DELETE", { origin: "http://exchange.example.evil.example" }))).toBe(true);
    // Same origin, a browser without Origin on same-origin, a non-browser client, a safe method.
    expect(isCrossSiteWrite(req("POST", { origin: "https://exchange.example" }))).toBe(false);
    expect(isCrossSiteWrite(req("POST", { "sec-fetch-site": "same-origin" }))).toBe(false);
    expect(isCrossSiteWrite(req("POST", {}))).toBe(false);
    expect(isCrossSiteWrite(req("GET", { origin: "https://evil.example" }))).toBe(false);
    // A forwarded host cannot vouch for a foreign origin.
    expect(isCrossSiteWrite(req("POST", { origin: "https://evil.example", "x-forwarded-host": "evil.example" }))).toBe(true);
  });

  it("says why a body cannot be a form", () => {
    expect(unreadableFormReason(req("POST", { "content-type": "application/json", "content-length": "2" }))).toMatch(/not a form/);
    expect(unreadableFormReason(req("POST", { "content-type": "text/plain" }))).toMatch(/not a form/);
    expect(unreadableFormReason(req("POST", { "content-type": "multipart/form-data" }))).toMatch(/boundary/);
    expect(unreadableFormReason(req("POST", { "content-length": "12" }))).toMatch(/Content-Type/);
    expect(unreadableFormReason(req("POST", { "content-type": "application/x-www-form-urlencoded;charset=UTF-8" }))).toBeNull();
    expect(unreadableFormReason(req("POST", { "content-type": "multipart/form-data; boundary=----x" }))).toBeNull();
    expect(unreadableFormReason(req("POST", { "content-length": "0" }))).toBeNull();
    expect(unreadableFormReason(req("GET", { "content-type": "application/json" }))).toBeNull();
  });

  it("turns an action's unparseable body into a 400 and leaves other errors alone", async () => {
    const failing = (error: unknown) => ({
      routes: {
        r: {
          module: {
            action: async () => {
              throw error;
            },
            default: () => null,
          },
        },
      },
    });
    const cutOff = new Request("http://x/", {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=abc" },
      body: '--abc\r\nContent-Disposition: form-data; name="a"\r\n\r\nhel',
    });
    const parseError = await cutOff.formData().catch((e: unknown) => e);
    expect(isUnreadableBodyError(parseError)).toBe(true);
    const answer = await (guardActions(failing(parseError)).routes.r.module.action as () => Promise<unknown>)().catch((e: unknown) => e);
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).status).toBe(400);
    const bug = new Error("a bug");
    await expect((guardActions(failing(bug)).routes.r.module.action as () => Promise<unknown>)()).rejects.toBe(bug);
    // Routes without an action are left as they are.
    const build = { routes: { r: { module: { default: () => null } } } };
    expect(guardActions(build).routes.r).toBe(build.routes.r);
  });
});

describe("security headers", () => {
  it("allow scripts only from this origin or with the nonce, and HSTS only over TLS", () => {
    const plain = securityHeaders("abc123", false);
    expect(plain["Content-Security-Policy"]).toContain("script-src 'self' 'nonce-abc123'");
    expect(plain["Content-Security-Policy"]).toContain("frame-ancestors 'none'");
    expect(plain["Content-Security-Policy"]).not.toContain("unsafe-eval");
    expect(plain["Strict-Transport-Security"]).toBeUndefined();
    expect(securityHeaders("abc123", true)["Strict-Transport-Security"]).toMatch(/max-age=\d+/);
  });
});
