import { describe, expect, it } from "vitest";
import { SUBSCRIPTION_STATUSES as PROTOCOL } from "#protocol/endpoints/subscription";
import { SUBSCRIPTION_STATUSES } from "./subscriptions";

describe("the records page's statuses", () => {
  it("are the protocol's, in its order", () => {
    expect(SUBSCRIPTION_STATUSES).toEqual(PROTOCOL);
  });
});
