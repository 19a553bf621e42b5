import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

/** Under the header, across the middle, above the page (and clear of the toasts on wide screens). */
export const alert = style({
  position: "fixed",
  top: "76px",
  left: "50%",
  transform: "translateX(-50%)",
  zIndex: 85,
  width: "min(520px, calc(100vw - 32px))",
  display: "flex",
  alignItems: "flex-start",
  gap: "12px",
  padding: "14px 16px",
  background: vars.color.surfaceRaised,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderLeft: `4px solid ${vars.color.danger}`,
  borderRadius: vars.radius.medium,
  boxShadow: vars.shadow.menu,
});
export const body = style({ flex: 1, minWidth: 0, display: "grid", gap: "6px" });
export const title = style({ margin: 0, fontWeight: 700 });
export const text = style({ margin: 0, color: vars.color.textMuted });
export const reload = style({ justifySelf: "start", fontWeight: 600, color: vars.color.accentStrong, textDecoration: "underline" });
export const dismiss = style({
  flex: "none",
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  width: "32px",
  height: "32px",
  margin: "-6px -8px 0 0",
  background: "transparent",
  border: 0,
  borderRadius: vars.radius.small,
  fontSize: "20px",
  lineHeight: 1,
  color: vars.color.textMuted,
  cursor: "pointer",
  selectors: { "&:hover": { color: vars.color.text } },
});
