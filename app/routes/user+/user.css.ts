import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

export const layout = style({ display: "grid", placeItems: "start center", padding: "56px 16px", flex: 1 });
export const card = style({
  width: "min(440px, 100%)",
  padding: "32px",
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.large,
});
export const title = style({ fontSize: "26px", marginBottom: "20px" });
export const intro = style({ margin: "-8px 0 16px", color: vars.color.textMuted, fontSize: "14px" });
export const forgotLine = style({ margin: "-4px 0 12px", textAlign: "right", fontSize: "13px" });
export const switchLine = style({ marginTop: "20px", color: vars.color.textMuted, textAlign: "center" });
export const demo = style({
  marginTop: "24px",
  padding: "16px",
  border: `1px dashed ${vars.color.border}`,
  borderRadius: vars.radius.medium,
  display: "grid",
  gap: "8px",
});
export const demoTitle = style({ fontSize: "15px", margin: 0 });
export const demoText = style({ margin: 0, color: vars.color.textMuted, fontSize: "13px", overflowWrap: "anywhere" });
export const demoButton = style({
  width: "100%",
  padding: "10px 12px",
  borderRadius: vars.radius.medium,
  border: `1px solid ${vars.color.accent}`,
  background: "transparent",
  color: vars.color.text,
  fontWeight: 600,
  cursor: "pointer",
  ":focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: "2px" },
});
