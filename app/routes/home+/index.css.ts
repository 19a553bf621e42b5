import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

export const page = style({ display: "grid", gap: "56px", padding: "48px 24px 72px", maxWidth: "1200px", margin: "0 auto", width: "100%" });
export const hero = style({
  display: "grid",
  gridTemplateColumns: "minmax(0, 1.2fr) minmax(0, 1fr)",
  gap: "40px",
  alignItems: "center",
  "@media": { "(max-width: 860px)": { gridTemplateColumns: "1fr" } },
});
export const heroTitle = style({ fontSize: "clamp(32px, 5vw, 52px)", fontWeight: 800, letterSpacing: "-0.02em" });
export const heroText = style({ color: vars.color.textMuted, fontSize: "18px", margin: "16px 0 28px", maxWidth: "560px" });
export const heroActions = style({ display: "flex", gap: "12px", flexWrap: "wrap" });
export const heroImage = style({ width: "100%", height: "auto", maxHeight: "320px" });
export const cta = style({
  display: "inline-flex",
  alignItems: "center",
  height: "44px",
  padding: "0 22px",
  borderRadius: vars.radius.small,
  background: vars.color.accent,
  color: vars.color.accentText,
  fontWeight: 700,
  selectors: { "&:hover": { background: vars.color.accentHover, color: vars.color.accentText } },
});
export const stats = style({ display: "grid", gridTemplateColumns: "repeat(auto-fit, minmax(200px, 1fr))", gap: "16px", margin: 0 });
export const stat = style({ padding: "20px 24px", background: vars.color.surface, border: `1px solid ${vars.color.border}`, borderRadius: vars.radius.large });
export const statValue = style({ fontSize: "28px", fontWeight: 800, color: vars.color.accentStrong, margin: 0 });
export const statLabel = style({ color: vars.color.textMuted });
export const sectionTitle = style({ fontSize: "24px", marginBottom: "16px" });
export const products = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fit, minmax(240px, 1fr))",
  gap: "16px",
  listStyle: "none",
  margin: 0,
  padding: 0,
});
export const product = style({ padding: "20px", background: vars.color.surface, border: `1px solid ${vars.color.border}`, borderRadius: vars.radius.large });
export const productTitle = style({ fontSize: "16px", marginBottom: "6px" });
export const productText = style({ color: vars.color.textMuted, margin: 0 });
