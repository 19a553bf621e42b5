import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

export const head = style({ display: "flex", flexWrap: "wrap", alignItems: "center", justifyContent: "space-between", gap: "12px", marginBottom: "16px" });
export const filters = style({ display: "flex", gap: "8px", alignItems: "center" });
export const filter = style({
  padding: "6px 12px",
  borderRadius: vars.radius.small,
  border: `1px solid ${vars.color.border}`,
  color: vars.color.text,
  textDecoration: "none",
  fontSize: "13px",
  selectors: { '&[aria-current="page"]': { borderColor: vars.color.accent, color: vars.color.accentStrong, fontWeight: 600 } },
});
export const list = style({ listStyle: "none", margin: 0, padding: 0, display: "grid" });
export const item = style({
  display: "grid",
  gridTemplateColumns: "10px minmax(0, 1fr) auto",
  alignItems: "center",
  gap: "12px",
  padding: "14px 0",
  borderBottom: `1px solid ${vars.color.border}`,
});
export const dot = style({ width: "8px", height: "8px", borderRadius: "50%", background: vars.color.accent });
export const text = style({ display: "grid", gap: "4px", minWidth: 0 });
export const content = style({ color: vars.color.text, textDecoration: "none", selectors: { "&:hover": { textDecoration: "underline" } } });
export const read = style({ color: vars.color.textMuted });
export const meta = style({ fontSize: "12px", color: vars.color.textMuted, margin: 0 });
