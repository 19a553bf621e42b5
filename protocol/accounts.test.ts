import { describe, expect, it } from "vitest";
import { ACCOUNT_CODES, ACCOUNTS, OPEN_ACCOUNT_CODES, OPEN_ACCOUNTS } from "./accounts";

describe("account codes", () => {
  it("name each account once, both ways", () => {
    for (const [code, name] of Object.entries(ACCOUNTS)) expect(ACCOUNT_CODES[name]).toBe(code);
    expect(Object.keys(ACCOUNT_CODES)).toHaveLength(Object.keys(ACCOUNTS).length);
  });

  it("open the accounts a member can hold today, in the same order by code and by name", () => {
    expect(OPEN_ACCOUNT_CODES.map((code) => ACCOUNTS[code])).toEqual([...OPEN_ACCOUNTS]);
  });
});
