import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ACCOUNT_CENTER_ROUTE_ID } from "./use-member-info";

describe("useMemberInfo", () => {
  it("names a route file that exists (a renamed layout would otherwise fail only at render time)", () => {
    expect(existsSync(`app/${ACCOUNT_CENTER_ROUTE_ID}.tsx`)).toBe(true);
  });
});
