import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

const narrow = "(max-width: 640px)";

export const page = style({
  display: "grid",
  gridTemplateColumns: "minmax(0, 1fr)",
  gap: "20px",
  padding: "40px 24px 72px",
  maxWidth: "1200px",
  margin: "0 auto",
  width: "100%",
  "@media": { [narrow]: { padding: "24px 12px 48px", gap: "16px" } },
});
export const head = style({ display: "flex", flexWrap: "wrap", alignItems: "flex-end", justifyContent: "space-between", gap: "16px" });
export const title = style({ fontSize: "clamp(26px, 4vw, 36px)", fontWeight: 800, letterSpacing: "-0.01em", selectors: { "&:focus": { outline: "none" } } });
export const subtitle = style({ color: vars.color.textMuted, margin: "6px 0 0" });
export const search = style({ display: "flex", gap: "8px", flex: "0 1 360px", minWidth: 0, "@media": { [narrow]: { flexBasis: "100%" } } });
export const searchInput = style({
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
export const searchButton = style({
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
export const bar = style({ display: "flex", flexWrap: "wrap", alignItems: "center", justifyContent: "space-between", gap: "12px" });
export const tabs = style({ display: "flex", gap: "4px", listStyle: "none", margin: 0, padding: 0, borderBottom: `1px solid ${vars.color.border}` });
export const tab = style({
  display: "inline-flex",
  alignItems: "center",
  gap: "6px",
  padding: "10px 14px",
  color: vars.color.textMuted,
  fontWeight: 600,
  textDecoration: "none",
  borderBottom: "2px solid transparent",
  marginBottom: "-1px",
  selectors: {
    "&:hover": { color: vars.color.text },
    '&[aria-current="page"]': { color: vars.color.text, borderBottomColor: vars.color.accent },
  },
});
export const tabCount = style({ fontSize: "12px", fontWeight: 500, color: vars.color.textMuted });
export const summary = style({ color: vars.color.textMuted, fontSize: "14px", margin: 0 });
export const clearLink = style({ marginLeft: "8px", color: vars.color.accentStrong, fontWeight: 600 });
export const emptyText = style({ margin: "0 0 8px" });
export const star = style({
  // Above the row's covering link.
  position: "relative",
  zIndex: 1,
  display: "inline-grid",
  placeItems: "center",
  width: "32px",
  height: "32px",
  padding: 0,
  border: "none",
  borderRadius: "50%",
  background: "transparent",
  color: vars.color.textMuted,
  fontSize: "18px",
  lineHeight: 1,
  cursor: "pointer",
  textDecoration: "none",
  selectors: { "&:hover": { background: vars.color.surfaceRaised, color: vars.color.accentStrong } },
});
export const starOn = style([star, { color: vars.color.accentStrong }]);
export const starForm = style({ display: "inline" });
export const emptyLink = style({ color: vars.color.accentStrong, fontWeight: 600, textDecoration: "underline" });
