/**
 * Number input sanitizing of spec §5: keeps only digits and one decimal point, forbids a leading
 * point, collapses leading zeros and truncates to the allowed decimals. Applied as the member
 * types (with JavaScript) and again on the server before validation (without it).
 */
export function sanitizeNumberInput(raw: string, maxDecimals: number): string {
  let text = raw.replace(/[^\d.]/g, "");
  // Forbid a leading point.
  text = text.replace(/^\.+/, "");
  // Keep only the first point.
  const point = text.indexOf(".");
  if (point !== -1) text = text.slice(0, point + 1) + text.slice(point + 1).replace(/\./g, "");
  // Collapse leading zeros: "007" -> "7", "00.5" -> "0.5".
  text = text.replace(/^0+(?=\d)/, "");
  if (point !== -1) {
    const [whole = "", fraction = ""] = text.split(".");
    text = maxDecimals > 0 ? `${whole}.${fraction.slice(0, maxDecimals)}` : whole;
  }
  return text;
}
