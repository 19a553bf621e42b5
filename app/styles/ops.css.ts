import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

/**
 * The operator console's frame (decision 043): a bar with the operator and the sign-out, a side
 * menu of the pages the role reaches, the page beside it. Made for 1440 px, usable at 768 px
 * (the menu goes above the page).
 */
const narrow = "screen and (max-width: 900px)";

export const bar = style({
  display: "flex",
  alignItems: "center",
  gap: "16px",
  padding: "10px 24px",
  background: vars.color.surface,
  borderBottom: `1px solid ${vars.color.border}`,
  flexWrap: "wrap",
  width: "100%",
});
export const brand = style({ fontWeight: 700, fontSize: "16px", marginRight: "auto" });
export const who = style({ color: vars.color.textMuted, fontSize: "14px" });
export const layout = style({
  display: "grid",
  gridTemplateColumns: "220px minmax(0, 1fr)",
  gap: "24px",
  maxWidth: "1440px",
  width: "100%",
  margin: "0 auto",
  padding: "24px",
  "@media": { [narrow]: { gridTemplateColumns: "minmax(0, 1fr)", padding: "16px" } },
});
export const menu = style({ listStyle: "none", margin: 0, padding: "8px", display: "grid", gap: "2px", alignSelf: "start" });
globalStyle(`${menu} a`, { display: "block", padding: "10px 12px", borderRadius: vars.radius.small, fontWeight: 500, minHeight: "24px" });
globalStyle(`${menu} a[aria-current="page"]`, { background: vars.color.surfaceRaised, color: vars.color.accentStrong });
export const content = style({ minWidth: 0, display: "grid", gap: "24px", alignContent: "start" });
export const card = style({
  minWidth: 0,
  padding: "24px",
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.large,
});
export const narrowCard = style({ maxWidth: "440px", margin: "48px auto", width: "calc(100% - 32px)" });
export const title = style({ fontSize: "22px", marginBottom: "16px" });
export const muted = style({ color: vars.color.textMuted });
export const tiles = style({ display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(200px, 1fr))", gap: "16px", margin: 0 });
export const tile = style({ padding: "16px", background: vars.color.surfaceRaised, borderRadius: vars.radius.small, display: "grid", gap: "6px" });
export const tileLabel = style({ color: vars.color.textMuted, fontSize: "13px" });
export const tileValue = style({ margin: 0, fontSize: "22px", fontWeight: 700, fontVariantNumeric: "tabular-nums" });
export const linkButton = style({
  background: "none",
  border: `1px solid ${vars.color.border}`,
  color: "inherit",
  borderRadius: vars.radius.small,
  padding: "6px 12px",
  minHeight: "32px",
  cursor: "pointer",
  font: "inherit",
  selectors: {
    // A tab of a page's tables: the one shown is marked in words (aria-current) and in colour.
    '&[aria-current="page"]': { borderColor: vars.color.accentStrong, color: vars.color.accentStrong, fontWeight: 600 },
  },
});
export const qr = style({ width: "200px", height: "200px", background: "#fff", padding: "8px", borderRadius: vars.radius.small });
globalStyle(`${qr} svg`, { width: "100%", height: "100%" });
export const secret = style({ fontFamily: "monospace", fontSize: "15px", wordBreak: "break-all", letterSpacing: "0.05em" });
export const filters = style({ display: "flex", flexWrap: "wrap", gap: "12px", alignItems: "end", marginBottom: "16px" });
export const inline = style({ display: "flex", flexWrap: "wrap", gap: "8px", alignItems: "center" });
export const smallInput = style({
  minHeight: "36px",
  padding: "6px 10px",
  borderRadius: vars.radius.small,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.background,
  color: "inherit",
  font: "inherit",
});
export const code = style({ fontFamily: "monospace", fontSize: "12px", whiteSpace: "pre-wrap", wordBreak: "break-all", margin: 0 });
