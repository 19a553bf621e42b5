import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

const narrow = "(max-width: 640px)";

export const page = style({
  display: "grid",
  gridTemplateColumns: "minmax(0, 1fr)",
  gap: "20px",
  padding: "40px 24px 72px",
  maxWidth: "720px",
  margin: "0 auto",
  width: "100%",
  "@media": { [narrow]: { padding: "24px 12px 48px", gap: "16px" } },
});
export const title = style({ fontSize: "clamp(26px, 4vw, 36px)", fontWeight: 800, letterSpacing: "-0.01em", margin: 0 });
export const form = style({ display: "flex", gap: "8px" });
export const input = style({
  flex: 1,
  minWidth: 0,
  height: "40px",
  padding: "0 12px",
  borderRadius: vars.radius.small,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
  color: vars.color.text,
  font: "inherit",
});
export const button = style({
  height: "40px",
  padding: "0 16px",
  borderRadius: vars.radius.small,
  border: "none",
  background: vars.color.accent,
  color: vars.color.accentText,
  fontWeight: 700,
  cursor: "pointer",
  selectors: { "&:hover": { background: vars.color.accentHover } },
});
export const error = style({ margin: 0, color: vars.color.danger });
export const summary = style({ margin: 0, color: vars.color.textMuted, fontSize: "14px" });
export const section = style({
  padding: "12px",
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.medium,
});
export const heading = style({ margin: "4px 12px 8px", fontSize: "16px", fontWeight: 700 });
export const note = style({ margin: "8px 12px", color: vars.color.textMuted });
export const list = style({ margin: 0, padding: 0, listStyle: "none" });
export const link = style({ selectors: { "&:hover, &:focus-visible": { background: vars.color.surfaceRaised } } });
