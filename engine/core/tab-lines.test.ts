import { describe, expect, it } from "vitest";
import { TabCursor, eachTabLine } from "./tab-lines";

describe("lines of tab-separated fields", () => {
  const read = (text: string, width: number) => {
    const lines: string[][] = [];
    eachTabLine(text, width, (fields) => lines.push([...fields]));
    return lines;
  };

  it("gives each line's fields, and nothing for an empty text", () => {
    expect(read("a\tb\tc\nd\te\tf", 3)).toEqual([
      ["a", "b", "c"],
      ["d", "e", "f"],
    ]);
    expect(read("", 3)).toEqual([]);
  });

  it("leaves the missing fields of a short line empty and keeps empty fields", () => {
    expect(read("a\tb\nc\t\td", 3)).toEqual([
      ["a", "b", ""],
      ["c", "", "d"],
    ]);
  });
});

describe("a cursor over the same lines", () => {
  it("reads strings, comparisons and integers in place, field by field", () => {
    const line = new TabCursor("o1\tm1\tb\t100\t-5\t-\no2\tm2\ts\t100\t123456789012345678901234567890\t7\n");
    const read: unknown[][] = [];
    let price: bigint | undefined;
    while (line.next()) {
      const id = line.string();
      const member = line.string();
      const buy = line.is("b");
      const samePrice = price;
      price = line.bigint(price);
      read.push([id, member, buy, price, price === samePrice, line.bigint(), line.bigintOrDash()]);
    }
    expect(read).toEqual([
      ["o1", "m1", true, 100n, false, -5n, null],
      ["o2", "m2", false, 100n, true, 123456789012345678901234567890n, 7n],
    ]);
  });

  it("reads repeated integers as the same values, also those that share a slot of its cache or differ in sign", () => {
    // 4101 and 5 fall in one slot of the 4,096 kept; -5 is another value in the same slot.
    const line = new TabCursor("5\t4101\t5\t-5\t4101\t0\t-0\t999999999999999");
    line.next();
    expect(Array.from({ length: 8 }, () => line.bigint())).toEqual([5n, 4101n, 5n, -5n, 4101n, 0n, 0n, 999999999999999n]);
  });

  it("gives nothing for an empty text and refuses a field that is not an integer", () => {
    expect(new TabCursor("").next()).toBe(false);
    const line = new TabCursor("12x\t-");
    line.next();
    expect(() => line.bigint()).toThrow(SyntaxError);
    const dash = new TabCursor("-\t-1");
    dash.next();
    expect(dash.bigintOrDash()).toBeNull();
    expect(dash.bigintOrDash()).toBe(-1n);
  });
});
