import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

/** One market of the search (panel option or page link): coin and name, price, 24 h change. */
export const row = style({
  display: "grid",
  gridTemplateColumns: "minmax(0, 1fr) auto 76px",
  alignItems: "center",
  gap: "12px",
  padding: "8px 12px",
  borderRadius: vars.radius.small,
  color: vars.color.text,
  textDecoration: "none",
  cursor: "pointer",
});
export const coin = style({ display: "flex", alignItems: "center", gap: "10px", minWidth: 0 });
export const letter = style({
  display: "inline-grid",
  placeItems: "center",
  width: "24px",
  height: "24px",
  flex: "none",
  borderRadius: "50%",
  background: vars.color.surfaceRaised,
  border: `1px solid ${vars.color.border}`,
  color: vars.color.textMuted,
  fontSize: "11px",
  fontWeight: 700,
});
export const names = style({ display: "flex", flexDirection: "column", minWidth: 0, lineHeight: 1.25 });
export const pair = style({ fontWeight: 600, whiteSpace: "nowrap" });
export const name = style({ color: vars.color.textMuted, fontSize: "12px", whiteSpace: "nowrap", overflow: "hidden", textOverflow: "ellipsis" });
export const price = style({ fontFamily: vars.font.mono, fontSize: "13px", textAlign: "right", whiteSpace: "nowrap" });
export const change = style({ fontFamily: vars.font.mono, fontSize: "13px", textAlign: "right", whiteSpace: "nowrap" });
