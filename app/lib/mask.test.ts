import { describe, expect, it } from "vitest";
import { maskAccount } from "./mask";

describe("maskAccount (spec §5 account label masking)", () => {
  it("shows the first 2 and last 2 characters of an e-mail", () => {
    expect(maskAccount("alice@example.com")).toBe("al****om");
  });
  it("shows the first 3 and last 4 digits of a phone", () => {
    expect(maskAccount("13812345678")).toBe("138****5678");
    expect(maskAccount("015112345678")).toBe("015****5678");
  });
  it("hides short values", () => {
    expect(maskAccount("a@b.c")).toBe("a@****.c");
    expect(maskAccount("1234567")).toBe("1****");
  });
  it("counts characters, not UTF-16 units", () => {
    expect(maskAccount("李雷@例子.中国")).toBe("李雷****中国");
  });
});
