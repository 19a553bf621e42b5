import { describe, expect, it } from "vitest";
import { sanitizeNumberInput } from "./number-input";

describe("sanitizeNumberInput (spec §5 number input)", () => {
  it.each([
    ["12.5", 8, "12.5"],
    ["1a2b.3c", 8, "12.3"], // only digits and a point
    ["1.2.3", 8, "1.23"], // one point
    [".5", 8, "5"], // no leading point
    ["...5", 8, "5"],
    ["007", 8, "7"], // leading zeros collapse
    ["00.5", 8, "0.5"],
    ["0", 8, "0"],
    ["000", 8, "0"],
    ["1.123456789", 8, "1.12345678"], // truncated to the allowed decimals
    ["1.999", 2, "1.99"],
    ["5.", 2, "5."], // a trailing point stays while typing
    ["5.55", 0, "5"], // no decimals allowed
    ["-3", 8, "3"],
    ["１２", 8, ""], // full-width digits are not ASCII digits
    ["", 8, ""],
  ])("%j with %i decimals becomes %j", (raw, decimals, expected) => {
    expect(sanitizeNumberInput(raw, decimals)).toBe(expected);
  });
});
