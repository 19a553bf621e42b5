import { describe, expect, it } from "vitest";
import { isServedPath, servedPatterns } from "./route-patterns";

const manifest = {
  root: { id: "root", path: "" },
  "routes/_index": { id: "routes/_index", parentId: "root", index: true },
  "routes/home.index": { id: "routes/home.index", parentId: "root", path: "home/index" },
  "routes/user": { id: "routes/user", parentId: "root", path: "user" },
  "routes/user.login": { id: "routes/user.login", parentId: "routes/user", path: "login" },
  "routes/exchange.full-screen.$symbol": { id: "routes/exchange.full-screen.$symbol", parentId: "root", path: "exchange/full-screen/:symbol" },
  "routes/$": { id: "routes/$", parentId: "root", path: "*" },
};

describe("served paths from the route manifest", () => {
  const patterns = servedPatterns(manifest);

  it("matches built pages, nested and with parameters", () => {
    expect(isServedPath(patterns, "/home/index")).toBe(true);
    expect(isServedPath(patterns, "/user/login")).toBe(true);
    expect(isServedPath(patterns, "/exchange/full-screen/BTC_USDT")).toBe(true);
    expect(isServedPath(patterns, "/")).toBe(true);
  });

  it("does not count the catch-all redirect as a page", () => {
    expect(isServedPath(patterns, "/market/main")).toBe(false);
    expect(isServedPath(patterns, "/exchange/full-screen")).toBe(false);
    expect(isServedPath(patterns, "/home/index/extra")).toBe(false);
  });
});
