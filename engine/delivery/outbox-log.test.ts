import { describe, expect, it } from "vitest";
import { maskCodes } from "./outbox-log";

describe("the outbox as operators read it", () => {
  it("hides a code in a subject where mail really leaves, and keeps the rest", () => {
    expect(maskCodes("Meridian verification code: 482913")).toBe("Meridian verification code: ••••••");
    expect(maskCodes("Deposit credited: 0.012 BTC")).toBe("Deposit credited: 0.012 BTC");
  });
});
