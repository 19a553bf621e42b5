/**
 * The image type of a file by its first bytes, not its name (spec §5: ID images are JPG, JPEG,
 * PNG, BMP or GIF). Anything else, including a text file renamed `.png`, is null.
 */
export type ImageType = "image/jpeg" | "image/png" | "image/gif" | "image/bmp";

export const IMAGE_EXTENSIONS: Record<ImageType, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/gif": "gif",
  "image/bmp": "bmp",
};

export function sniffImageType(head: Uint8Array): ImageType | null {
  const starts = (...bytes: number[]) => bytes.every((b, i) => head[i] === b);
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (starts(0x47, 0x49, 0x46, 0x38) && (head[4] === 0x37 || head[4] === 0x39) && head[5] === 0x61) return "image/gif";
  // BMP: "BM", then a file size and a header size that make sense.
  if (starts(0x42, 0x4d) && head.length >= 18) {
    const headerSize = head[14]! | (head[15]! << 8) | (head[16]! << 16) | (head[17]! << 24);
    if ([12, 40, 52, 56, 64, 108, 124].includes(headerSize)) return "image/bmp";
  }
  return null;
}

export { MAX_ID_IMAGE_BYTES } from "./limits";
