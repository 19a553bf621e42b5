import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

/** Bottom right, clear of the flash toasts (top right). */
export const region = style({
  position: "fixed",
  bottom: "16px",
  right: "16px",
  zIndex: 79,
  width: "min(360px, calc(100vw - 32px))",
  pointerEvents: "none",
});
export const list = style({ listStyle: "none", margin: 0, padding: 0, display: "grid", gap: "8px" });
export const notice = style({
  pointerEvents: "auto",
  display: "flex",
  alignItems: "flex-start",
  gap: "10px",
  padding: "12px 14px",
  background: vars.color.surfaceRaised,
  border: `1px solid ${vars.color.border}`,
  borderLeft: `4px solid ${vars.color.accent}`,
  borderRadius: vars.radius.medium,
  boxShadow: vars.shadow.menu,
});
export const body = style({ flex: 1, minWidth: 0, display: "grid", gap: "4px" });
export const kind = style({ fontSize: "12px", color: vars.color.textMuted, margin: 0 });
export const link = style({
  color: vars.color.text,
  textDecoration: "none",
  fontSize: "14px",
  lineHeight: 1.4,
  selectors: { "&:hover": { textDecoration: "underline" } },
});
export const close = style({
  flex: "none",
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  width: "28px",
  height: "28px",
  margin: "-4px -6px 0 0",
  background: "transparent",
  border: 0,
  borderRadius: vars.radius.small,
  fontSize: "18px",
  lineHeight: 1,
  color: vars.color.textMuted,
  textDecoration: "none",
  cursor: "pointer",
  selectors: { "&:hover": { color: vars.color.text } },
});
