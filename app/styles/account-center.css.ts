import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

/** Below this width the side menu folds behind a button above the page (phones, small tablets). */
const folded = "screen and (max-width: 760px)";

export const layout = style({
  display: "grid",
  gridTemplateColumns: "220px minmax(0, 1fr)",
  gap: "24px",
  maxWidth: "1200px",
  width: "100%",
  margin: "0 auto",
  padding: "32px 24px 64px",
  "@media": { [folded]: { gridTemplateColumns: "minmax(0, 1fr)", gap: "16px", padding: "16px 16px 48px" } },
});
export const side = style({
  alignSelf: "start",
  padding: "8px",
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.large,
});
/** The side menu's button: only when folded. A summary-only <details>, so it needs no JavaScript. */
export const sideToggle = style({ display: "none", "@media": { [folded]: { display: "block" } } });
export const sideButton = style({
  display: "flex",
  alignItems: "center",
  gap: "8px",
  minHeight: "44px",
  padding: "0 12px",
  borderRadius: vars.radius.small,
  fontWeight: 600,
  cursor: "pointer",
  listStyle: "none",
  selectors: {
    "&::-webkit-details-marker": { display: "none" },
    // A chevron: down while folded, up while open.
    "&::after": {
      content: '""',
      marginLeft: "auto",
      width: "8px",
      height: "8px",
      borderRight: "2px solid currentColor",
      borderBottom: "2px solid currentColor",
      transform: "translateY(-2px) rotate(45deg)",
    },
    [`${sideToggle}[open] > &::after`]: { transform: "translateY(2px) rotate(-135deg)" },
  },
});
export const sideButtonLabel = style({ color: vars.color.textMuted, fontWeight: 500 });
/** The menu: always shown beside the page; when folded, only while its button is open. */
export const sideNav = style({
  "@media": { [folded]: { display: "none", marginTop: "4px", selectors: { [`${sideToggle}[open] + &`]: { display: "block" } } } },
});
export const menu = style({ listStyle: "none", margin: 0, padding: 0, display: "grid", gap: "2px" });
export const menuLink = style({
  display: "block",
  padding: "10px 12px",
  borderRadius: vars.radius.small,
  fontWeight: 500,
  selectors: { '&[aria-current="page"]': { background: vars.color.surfaceRaised, color: vars.color.accentStrong } },
});
export const content = style({ minWidth: 0, display: "grid", gap: "24px", alignContent: "start" });
export const card = style({
  minWidth: 0,
  padding: "24px",
  "@media": { [folded]: { padding: "16px" } },
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.large,
});
export const title = style({ fontSize: "22px", marginBottom: "16px" });
export const subtitle = style({ fontSize: "16px", marginBottom: "12px" });
export const facts = style({ display: "grid", gridTemplateColumns: "max-content 1fr", gap: "10px 24px", margin: 0 });
export const factLabel = style({ color: vars.color.textMuted });
export const factValue = style({ margin: 0, fontWeight: 600 });
export const settings = style({ listStyle: "none", margin: 0, padding: 0, display: "grid" });
export const setting = style({
  display: "grid",
  gridTemplateColumns: "minmax(0, 1fr) 64px 96px",
  alignItems: "center",
  gap: "16px",
  padding: "16px 0",
  borderBottom: `1px solid ${vars.color.border}`,
});
export const settingText = style({ display: "grid", gap: "2px" });
export const muted = style({ color: vars.color.textMuted, fontSize: "13px", margin: 0 });
export const on = style({ color: vars.color.success, fontWeight: 600 });
export const off = style({ color: vars.color.textMuted });
export const action = style({
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  height: "34px",
  padding: "0 14px",
  borderRadius: vars.radius.small,
  border: `1px solid ${vars.color.border}`,
  background: "transparent",
  fontWeight: 600,
  whiteSpace: "nowrap",
  selectors: { "&:hover": { borderColor: vars.color.accent }, "&:disabled": { color: vars.color.textMuted, cursor: "not-allowed" } },
});
export const narrow = style({ maxWidth: "440px" });
export const th = style({
  textAlign: "left",
  padding: "10px 12px",
  color: vars.color.textMuted,
  fontWeight: 500,
  fontSize: "12px",
  borderBottom: `1px solid ${vars.color.border}`,
});
export const td = style({ padding: "10px 12px", borderBottom: `1px solid ${vars.color.border}`, verticalAlign: "middle" });
export const inlineForm = style({ display: "flex", gap: "8px", alignItems: "center" });
export const smallInput = style({
  height: "34px",
  padding: "0 10px",
  background: vars.color.background,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.small,
  minWidth: "120px",
});
export const steps = style({ margin: "0 0 16px", paddingLeft: "20px", display: "grid", gap: "6px" });
export const qr = style({ margin: "0 0 16px", display: "grid", gap: "8px", justifyItems: "start" });
globalStyle(`${qr} svg`, { width: "180px", height: "180px", borderRadius: vars.radius.small });
