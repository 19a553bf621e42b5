import { describe, expect, it } from "vitest";
import { csvField, csvRecord } from "./csv";

describe("csv", () => {
  it("leaves plain fields alone and ends records with CRLF", () => {
    expect(csvRecord(["BTC/USDT", "0.05", "buy"])).toBe("BTC/USDT,0.05,buy\r\n");
    expect(csvRecord([null, undefined, ""])).toBe(",,\r\n");
  });

  it("quotes commas, quotes and line breaks (RFC 4180)", () => {
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("cr\rhere")).toBe('"cr\rhere"');
  });

  it("neutralises cells a spreadsheet would run as formulas", () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvField("+1+1")).toBe("'+1+1");
    expect(csvField("-2+3")).toBe("'-2+3");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField("\tx")).toBe("'\tx");
    expect(csvField("\rx")).toBe('"\'\rx"');
  });

  it("keeps decimal numbers, negative ones too, as numbers", () => {
    expect(csvField("-12.5")).toBe("-12.5");
    expect(csvField("0.00000001")).toBe("0.00000001");
    expect(csvField("-0.5e3")).toBe("'-0.5e3");
  });
});
