import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

/** The margin page (decision 050): its account tabs, the level and its lines, the warning. */
export const tabs = style({ listStyle: "none", margin: "0 0 16px", padding: 0, display: "flex", flexWrap: "wrap", gap: "8px" });
export const tab = style({
  display: "inline-flex",
  gap: "6px",
  alignItems: "baseline",
  padding: "6px 12px",
  borderRadius: vars.radius.medium,
  border: `1px solid ${vars.color.border}`,
  color: vars.color.text,
  textDecoration: "none",
  selectors: {
    "&[aria-current='page']": { borderColor: vars.color.accent, fontWeight: 600 },
    "&:hover": { borderColor: vars.color.accent },
  },
});
export const tabLevel = style({ color: vars.color.textMuted, fontSize: "12px" });
export const warning = style({
  margin: "0 0 16px",
  padding: "10px 12px",
  borderRadius: vars.radius.medium,
  border: `1px solid ${vars.color.danger}`,
  color: vars.color.text,
});
export const forms = style({ display: "grid", gap: "24px", gridTemplateColumns: "repeat(auto-fit, minmax(min(100%, 320px), 1fr))", marginTop: "24px" });
export const hint = style({ margin: "0 0 12px", color: vars.color.textMuted, fontSize: "13px" });
export const lines = style({ margin: "12px 0 20px", color: vars.color.textMuted, fontSize: "13px" });
export const coins = style({
  listStyle: "none",
  margin: 0,
  padding: 0,
  display: "grid",
  gap: "12px",
  gridTemplateColumns: "repeat(auto-fill, minmax(min(100%, 240px), 1fr))",
});
export const coin = style({ border: `1px solid ${vars.color.border}`, borderRadius: vars.radius.medium, padding: "12px" });
export const coinName = style({ margin: "0 0 8px", fontSize: "15px" });
export const coinFacts = style({ margin: 0, display: "grid", gap: "4px" });
export const coinFact = style({ display: "flex", justifyContent: "space-between", gap: "12px", fontSize: "13px" });
export const coinValue = style({ margin: 0, fontFamily: vars.font.mono, whiteSpace: "nowrap" });
