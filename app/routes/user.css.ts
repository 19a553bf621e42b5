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
export const switchLine = style({ marginTop: "20px", color: vars.color.textMuted, textAlign: "center" });
