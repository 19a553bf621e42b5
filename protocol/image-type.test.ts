import { describe, expect, it } from "vitest";
import { sniffImageType } from "./image-type";

const bytes = (...values: number[]) => Uint8Array.from(values);

describe("sniffImageType (by content, not by name)", () => {
  it("recognises the four ID image types", () => {
    expect(sniffImageType(bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10))).toBe("image/jpeg");
    expect(sniffImageType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe("image/png");
    expect(sniffImageType(new TextEncoder().encode("GIF89a...."))).toBe("image/gif");
    const bmp = new Uint8Array(54);
    bmp.set([0x42, 0x4d]);
    bmp[14] = 40;
    expect(sniffImageType(bmp)).toBe("image/bmp");
  });
  it("refuses text renamed to an image, and other formats", () => {
    expect(sniffImageType(new TextEncoder().encode("hello, I am a .png"))).toBeNull();
    expect(sniffImageType(new TextEncoder().encode("BM but not a bitmap at all"))).toBeNull();
    expect(sniffImageType(new TextEncoder().encode("%PDF-1.7"))).toBeNull();
    expect(sniffImageType(new Uint8Array(0))).toBeNull();
  });
});
