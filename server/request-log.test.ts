import { describe, expect, it } from "vitest";
import { errorStatus, isClientFault, requestErrorLog } from "./request-log.mjs";

describe("the log of a request that ended in an error", () => {
  it("is one line for a client's malformed request: method, path without query, status, the message's first line", () => {
    const noRoute = new Error('Route "routes/nope" does not match URL "/user/login"\nmore detail');
    const line = requestErrorLog({ method: "GET", url: "http://exchange.example/user/login?_data=routes%2Fnope&token=secret" }, 403, noRoute);
    expect(line).toBe('GET /user/login 403 Route "routes/nope" does not match URL "/user/login"');
    // Express's own 400 for a path it cannot decode, by its request target.
    const undecodable = Object.assign(new URIError("Failed to decode param '/%E0%A4%A'"), { status: 400 });
    expect(requestErrorLog({ method: "GET", url: "/%E0%A4%A?x=1" }, errorStatus(undecodable), undecodable)).toBe(
      "GET /%E0%A4%A 400 Failed to decode param '/%E0%A4%A'",
    );
    // A URL that cannot be decoded is the client's doing even where it makes a 500.
    expect(requestErrorLog({ method: "GET", url: "/a" }, 500, new URIError("URI malformed"))).toBe("GET /a 500 URI malformed");
  });

  it("keeps no stack for a client fault and masks what could forge a log line", () => {
    const error = new Error("bad \u001b[31mred\r\ninjected");
    const line = requestErrorLog({ method: "POST", url: "/x" }, 405, error);
    expect(line).toBe("POST /x 405 bad ?[31mred");
    expect(line).not.toContain("\n");
    expect(requestErrorLog({ method: "GET", url: `/${"a".repeat(5000)}` }, 404, new Error("m".repeat(5000))).length).toBeLessThan(450);
  });

  it("keeps the stack of a server fault after its line", () => {
    const bug = new Error("cannot read properties of undefined");
    const text = requestErrorLog({ method: "GET", url: "http://x/account/center?tab=1" }, 500, bug);
    expect(text.split("\n")[0]).toBe("GET /account/center 500 cannot read properties of undefined");
    expect(text).toContain(bug.stack!);
  });

  it("reads an error answer the app chose (no Error, so no stack)", () => {
    expect(requestErrorLog({ method: "GET", url: "/home" }, 503, { status: 503, statusText: "", data: { reason: "unreachable" } })).toBe("GET /home 503");
    expect(requestErrorLog({ method: "GET", url: "/home" }, 404, { status: 404, statusText: "Not Found", data: "no such page" })).toBe(
      "GET /home 404 no such page",
    );
  });

  it("takes an error's own 4xx or 5xx status, else 500", () => {
    expect(errorStatus(Object.assign(new Error(), { status: 400 }))).toBe(400);
    expect(errorStatus(Object.assign(new Error(), { statusCode: 413 }))).toBe(413);
    expect(errorStatus(Object.assign(new Error(), { status: 200 }))).toBe(500);
    expect(errorStatus(new Error())).toBe(500);
    expect(errorStatus(undefined)).toBe(500);
    expect(isClientFault(404, new Error())).toBe(true);
    expect(isClientFault(500, new Error())).toBe(false);
  });
});
