import { style, styleVariants } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

export const region = style({
  position: "fixed",
  top: "76px",
  right: "16px",
  zIndex: 80,
  display: "grid",
  gap: "8px",
  maxWidth: "min(380px, calc(100vw - 32px))",
});
const base = style({
  display: "flex",
  alignItems: "flex-start",
  gap: "12px",
  padding: "12px 14px",
  background: vars.color.surfaceRaised,
  border: `1px solid ${vars.color.border}`,
  borderLeftWidth: "4px",
  borderRadius: vars.radius.medium,
  boxShadow: vars.shadow.menu,
});
export const toast = styleVariants({
  success: [base, { borderLeftColor: vars.color.success }],
  error: [base, { borderLeftColor: vars.color.danger }],
  info: [base, { borderLeftColor: vars.color.focus }],
});
export const text = style({ flex: 1, margin: 0 });
export const close = style({ background: "transparent", border: 0, padding: "0 4px", fontSize: "18px", lineHeight: 1, color: vars.color.textMuted });
