import { describe, expect, it } from "vitest";
import { isSecureRequest } from "./cookie-security.server";
import { readWebEnv } from "./env.server";

const request = (url: string, proto?: string) => new Request(url, { headers: proto ? { "x-forwarded-proto": proto } : {} });

describe("cookies' Secure flag", () => {
  it("ignores a client's X-Forwarded-Proto without a trusted proxy", () => {
    expect(isSecureRequest(request("http://exchange.example/", "https"), false)).toBe(false);
    expect(isSecureRequest(request("https://exchange.example/", "http"), false)).toBe(true);
    expect(isSecureRequest(request("https://exchange.example/"), false)).toBe(true);
  });

  it("follows X-Forwarded-Proto behind a TRUST_PROXY proxy", () => {
    expect(isSecureRequest(request("http://exchange.example/", "https"), true)).toBe(true);
    expect(isSecureRequest(request("http://exchange.example/", "https, http"), true)).toBe(true);
    expect(isSecureRequest(request("http://exchange.example/", "http"), true)).toBe(false);
    expect(isSecureRequest(request("http://exchange.example/"), true)).toBe(false);
  });

  it("by default asks TRUST_PROXY, which is off unless set", () => {
    expect(readWebEnv({}).TRUST_PROXY).toBeUndefined();
    expect(isSecureRequest(request("http://exchange.example/", "https"))).toBe(Boolean(process.env.TRUST_PROXY));
  });
});

describe("TRUST_PROXY", () => {
  it("takes addresses, subnets and Express's named ranges, comma-separated", () => {
    for (const value of ["10.0.0.1", "10.0.0.0/8, 192.168.1.0/255.255.255.0", "loopback", "::1,fd00::/8", ""]) {
      expect(readWebEnv({ TRUST_PROXY: value }).TRUST_PROXY).toBe(value);
    }
  });

  it("refuses anything else, naming the variable", () => {
    for (const value of ["true", "1", "10.0.0.0/33", "proxy.example", "10.0.0.1,", "10.0.0.1/8/8"]) {
      expect(() => readWebEnv({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
    }
  });
});
