import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

export const page = style({ maxWidth: "880px", margin: "0 auto", padding: "48px 24px 72px", width: "100%", display: "grid", gap: "16px" });
export const title = style({ fontSize: "32px" });
export const lead = style({ fontSize: "18px", color: vars.color.textMuted, margin: 0 });
export const values = style({
  listStyle: "none",
  padding: 0,
  margin: "8px 0",
  display: "grid",
  gridTemplateColumns: "repeat(auto-fit, minmax(220px, 1fr))",
  gap: "16px",
});
export const value = style({ padding: "20px", background: vars.color.surface, border: `1px solid ${vars.color.border}`, borderRadius: vars.radius.large });
export const valueTitle = style({ fontSize: "16px", marginBottom: "6px" });
export const valueText = style({ margin: 0, color: vars.color.textMuted });
export const link = style({ textDecoration: "underline", textUnderlineOffset: "3px" });
