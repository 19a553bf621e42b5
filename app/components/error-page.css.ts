import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

export const page = style({
  flex: 1,
  display: "grid",
  placeItems: "center",
  padding: "64px 24px",
  textAlign: "center",
});
export const card = style({ maxWidth: "520px", display: "grid", gap: "16px", justifyItems: "center" });
export const title = style({ fontSize: "24px" });
export const text = style({ color: vars.color.textMuted, margin: 0 });
export const action = style({
  display: "inline-block",
  padding: "10px 20px",
  borderRadius: vars.radius.small,
  background: vars.color.accent,
  color: vars.color.accentText,
  fontWeight: 600,
  selectors: { "&:hover": { background: vars.color.accentHover, color: vars.color.accentText } },
});
export const actions = style({ display: "flex", flexWrap: "wrap", gap: "12px", justifyContent: "center" });
export const secondaryAction = style({
  display: "inline-block",
  padding: "10px 20px",
  borderRadius: vars.radius.small,
  border: `1px solid ${vars.color.border}`,
  fontWeight: 600,
});
