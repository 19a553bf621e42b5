import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

export const field = style({ display: "grid", gap: "6px", marginBottom: "16px" });
export const label = style({ fontWeight: 600, fontSize: "13px" });
export const input = style({
  width: "100%",
  height: "42px",
  padding: "0 12px",
  background: vars.color.background,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.small,
  color: vars.color.text,
  selectors: {
    '&[aria-invalid="true"]': { borderColor: vars.color.danger },
    "&:focus-visible": { borderColor: vars.color.focus },
  },
});
export const row = style({ display: "flex", gap: "8px", alignItems: "stretch" });
export const errors = style({ margin: 0, padding: 0, listStyle: "none", color: vars.color.danger, fontSize: "13px", minHeight: "0" });
export const hint = style({ color: vars.color.textMuted, fontSize: "12px", margin: 0 });
export const formErrors = style({
  margin: "0 0 16px",
  padding: "10px 12px",
  listStyle: "none",
  color: vars.color.danger,
  background: vars.color.background,
  border: `1px solid ${vars.color.danger}`,
  borderRadius: vars.radius.small,
});
export const primary = style({
  width: "100%",
  height: "44px",
  border: 0,
  borderRadius: vars.radius.small,
  background: vars.color.accent,
  color: vars.color.accentText,
  fontWeight: 700,
  selectors: { "&:hover": { background: vars.color.accentHover }, "&:disabled": { opacity: 0.6, cursor: "progress" } },
});
export const secondary = style({
  flexShrink: 0,
  padding: "0 14px",
  background: "transparent",
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.small,
  color: vars.color.text,
  fontWeight: 600,
  whiteSpace: "nowrap",
  selectors: { "&:hover": { borderColor: vars.color.accent }, "&:disabled": { color: vars.color.textMuted, cursor: "not-allowed" } },
});
export const honeypot = style({ position: "absolute", left: "-10000px", width: "1px", height: "1px", overflow: "hidden" });
export const tabs = style({ display: "flex", gap: "4px", marginBottom: "20px", borderBottom: `1px solid ${vars.color.border}` });
export const tab = style({
  padding: "8px 12px",
  borderBottom: "2px solid transparent",
  fontWeight: 600,
  color: vars.color.textMuted,
  selectors: { '&[aria-current="page"]': { color: vars.color.text, borderBottomColor: vars.color.accent } },
});
