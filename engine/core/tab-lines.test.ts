import { describe, expect, it } from "vitest";
import { eachTabLine } from "./tab-lines";

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
