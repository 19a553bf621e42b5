/**
 * Account label masking of spec §5: an e-mail shows its first 2 and last 2 characters, a phone
 * number its first 3 and last 4; the middle becomes four stars. Values too short to hide anything
 * keep only their first character.
 */
export function maskAccount(account: string): string {
  const value = account.trim();
  if (value.includes("@")) return maskMiddle(value, 2, 2);
  return maskMiddle(value, 3, 4);
}

function maskMiddle(value: string, head: number, tail: number): string {
  const chars = Array.from(value);
  if (chars.length <= head + tail) return `${chars[0] ?? ""}****`;
  return `${chars.slice(0, head).join("")}****${chars.slice(chars.length - tail).join("")}`;
}
