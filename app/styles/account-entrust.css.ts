import { style, styleVariants } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

/** The orders area (spot orders, one order's trades): tabs, filter bar, tables, paging. */

export const products = style({ display: "flex", flexWrap: "wrap", gap: "0 4px", borderBottom: `1px solid ${vars.color.border}` });
const tabBase = style({
  padding: "10px 14px",
  borderBottom: "2px solid transparent",
  marginBottom: "-1px",
  fontWeight: 600,
  color: vars.color.textMuted,
  selectors: { '&[aria-current="page"]': { color: vars.color.text, borderBottomColor: vars.color.accent } },
});
export const productTab = style([tabBase, { fontSize: "15px", "@media": { "screen and (max-width: 640px)": { padding: "8px 10px", fontSize: "14px" } } }]);
export const tabs = style({ display: "flex", flexWrap: "wrap", gap: "4px", marginBottom: "16px", borderBottom: `1px solid ${vars.color.border}` });
export const tab = tabBase;

export const head = style({ display: "flex", alignItems: "center", justifyContent: "space-between", gap: "12px", marginBottom: "16px", flexWrap: "wrap" });
export const title = style({ fontSize: "22px" });

export const filter = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "flex-end",
  gap: "12px",
  padding: "12px",
  marginBottom: "16px",
  background: vars.color.background,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.medium,
});
export const filterField = style({ display: "grid", gap: "4px", minWidth: "140px" });
export const filterLabel = style({ fontSize: "12px", fontWeight: 600, color: vars.color.textMuted });
export const control = style({
  height: "36px",
  padding: "0 10px",
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.small,
  color: vars.color.text,
  selectors: { '&[aria-invalid="true"]': { borderColor: vars.color.danger }, "&:focus-visible": { borderColor: vars.color.focus } },
});
export const fieldError = style({ margin: 0, padding: 0, listStyle: "none", color: vars.color.danger, fontSize: "12px" });
export const filterActions = style({ display: "flex", gap: "8px", alignItems: "center" });

const buttonBase = style({
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  height: "36px",
  padding: "0 14px",
  borderRadius: vars.radius.small,
  fontWeight: 600,
  whiteSpace: "nowrap",
});
export const primaryButton = style([
  buttonBase,
  {
    border: 0,
    background: vars.color.accent,
    color: vars.color.accentText,
    selectors: { "&:hover": { background: vars.color.accentHover, color: vars.color.accentText } },
  },
]);
export const ghostButton = style([
  buttonBase,
  {
    border: `1px solid ${vars.color.border}`,
    background: "transparent",
    color: vars.color.text,
    selectors: { "&:hover": { borderColor: vars.color.accent }, "&:disabled": { color: vars.color.textMuted, cursor: "progress" } },
  },
]);
export const smallButton = style([ghostButton, { height: "30px", padding: "0 10px", fontSize: "13px" }]);

/** A coin after its amount; the space before it is in the text (`Amount`). */
export const unit = style({ color: vars.color.textMuted, fontFamily: vars.font.body, fontSize: "11px" });
export const muted = style({ color: vars.color.textMuted, fontSize: "12px" });
/** Why an order was cancelled, under its status. */
export const reason = style([muted, { display: "block" }]);
/** The area: one column (a wider table scrolls inside its frame instead of widening the page). */
export const area = style({
  display: "grid",
  gridTemplateColumns: "minmax(0, 1fr)",
  gap: "24px",
  alignContent: "start",
  maxWidth: "1200px",
  width: "100%",
  margin: "0 auto",
  padding: "32px 24px 64px",
});
export const side = styleVariants({
  buy: { color: vars.color.up, fontWeight: 600 },
  sell: { color: vars.color.down, fontWeight: 600 },
});
export const status = styleVariants({
  open: { color: vars.color.accentStrong, fontWeight: 600 },
  done: { color: vars.color.text, fontWeight: 600 },
  cancelled: { color: vars.color.textMuted, fontWeight: 600 },
});
export const rowActions = style({ display: "flex", gap: "8px", justifyContent: "flex-end", alignItems: "center" });

export const link = style({ color: vars.color.accentStrong, fontWeight: 600, textDecoration: "underline", textUnderlineOffset: "2px" });

export const facts = style({ display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(180px, 1fr))", gap: "12px 24px", margin: "0 0 24px" });
export const fact = style({ display: "grid", gap: "2px", alignContent: "start" });
export const factLabel = style({ color: vars.color.textMuted, fontSize: "12px" });
export const factValue = style({ margin: 0, fontWeight: 600, fontVariantNumeric: "tabular-nums" });
export const subtitle = style({ fontSize: "16px", margin: "0 0 12px" });
export const back = style({ display: "inline-block", marginBottom: "12px", color: vars.color.accentStrong, fontWeight: 600 });
