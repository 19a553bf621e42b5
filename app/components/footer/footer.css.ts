import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

export const footer = style({
  marginTop: "auto",
  padding: "40px 24px 24px",
  background: vars.color.surface,
  borderTop: `1px solid ${vars.color.border}`,
  color: vars.color.textMuted,
});
export const inner = style({ maxWidth: "1200px", margin: "0 auto", display: "grid", gap: "32px" });
export const columns = style({ display: "grid", gridTemplateColumns: "repeat(auto-fit, minmax(160px, 1fr))", gap: "24px" });
export const brand = style({ color: vars.color.text, fontWeight: 700, fontSize: "16px", marginBottom: "8px" });
export const groupTitle = style({ color: vars.color.text, fontSize: "14px", fontWeight: 600, marginBottom: "10px" });
export const list = style({ listStyle: "none", margin: 0, padding: 0, display: "grid", gap: "8px" });
export const social = style({ display: "flex", flexWrap: "wrap", gap: "12px", listStyle: "none", margin: 0, padding: 0 });
export const socialLink = style({ textDecoration: "underline", textUnderlineOffset: "3px" });
export const legal = style({ borderTop: `1px solid ${vars.color.border}`, paddingTop: "16px", fontSize: "12px", display: "grid", gap: "6px" });
