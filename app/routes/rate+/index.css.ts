import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

export const page = style({ maxWidth: "880px", margin: "0 auto", padding: "48px 24px 72px", width: "100%", display: "grid", gap: "16px" });
export const title = style({ fontSize: "32px" });
export const subtitle = style({ fontSize: "20px", marginTop: "8px" });
export const section = style({ display: "grid", gap: "16px" });
export const intro = style({ color: vars.color.textMuted, margin: 0 });
export const note = style({ color: vars.color.textMuted, fontSize: "12px", margin: 0 });
export const tableWrap = style({ border: `1px solid ${vars.color.border}`, borderRadius: vars.radius.large, overflowX: "auto" });
export const th = style({
  textAlign: "left",
  padding: "12px 16px",
  color: vars.color.textMuted,
  fontWeight: 500,
  fontSize: "12px",
  borderBottom: `1px solid ${vars.color.border}`,
});
export const td = style({ textAlign: "left", padding: "12px 16px", borderBottom: `1px solid ${vars.color.border}` });
export const tdNumber = style([td, { fontFamily: vars.font.mono, textAlign: "right" }]);
export const thNumber = style([th, { textAlign: "right" }]);
export const current = style({ color: vars.color.accentStrong, fontWeight: 600 });
export const use = style({
  padding: "6px 12px",
  background: "transparent",
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.small,
  selectors: { "&:hover": { borderColor: vars.color.accent, color: vars.color.accent } },
});
