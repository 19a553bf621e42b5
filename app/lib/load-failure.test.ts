import { describe, expect, it } from "vitest";
import { hrefOf, isLoadFailure } from "./load-failure";

describe("isLoadFailure", () => {
  it("knows the browsers' words for a chunk or a fetch that did not arrive", () => {
    for (const message of [
      "Failed to fetch dynamically imported module: http://localhost:3000/build/routes/rate-ABC.js",
      "error loading dynamically imported module: http://localhost:3000/build/_shared/chunk-X.js",
      "Importing a module script failed.",
      "Failed to fetch",
      "NetworkError when attempting to fetch resource.",
      "Load failed",
    ]) {
      expect(isLoadFailure(new TypeError(message)), message).toBe(true);
    }
    const chunk = new Error("Loading chunk 42 failed.");
    chunk.name = "ChunkLoadError";
    expect(isLoadFailure(chunk)).toBe(true);
  });

  it("leaves every other failure to the generic page", () => {
    expect(isLoadFailure(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(false);
    expect(isLoadFailure(new Error("Image load failed for avatar"))).toBe(false);
    expect(isLoadFailure({ message: "Failed to fetch" })).toBe(false);
    expect(isLoadFailure(undefined)).toBe(false);
  });
});

describe("hrefOf", () => {
  it("joins path, query and fragment", () => {
    expect(hrefOf({ pathname: "/rate/index", search: "?a=1", hash: "#x" })).toBe("/rate/index?a=1#x");
  });
});
