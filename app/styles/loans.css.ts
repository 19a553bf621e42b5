import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

/** The crypto loan pages (decision 051): the products, the calculator, each loan as a card with its LTV and its form. */
export const page = style({ maxWidth: "1080px", margin: "0 auto", padding: "32px 16px 64px", width: "100%", display: "grid", gap: "24px", minWidth: 0 });
export const lead = style({ margin: "0 0 16px", color: vars.color.textMuted });
export const links = style({ display: "flex", flexWrap: "wrap", gap: "8px 20px", margin: "0 0 16px", fontSize: "14px" });
export const link = style({ color: vars.color.accent, textDecoration: "underline", textUnderlineOffset: "3px" });
export const tabs = style({ listStyle: "none", margin: "0 0 16px", padding: 0, display: "flex", flexWrap: "wrap", gap: "8px" });
export const tab = style({
  display: "inline-flex",
  alignItems: "center",
  minHeight: "32px",
  padding: "4px 14px",
  borderRadius: vars.radius.medium,
  border: `1px solid ${vars.color.border}`,
  color: vars.color.text,
  textDecoration: "none",
  selectors: { "&[aria-current='page']": { borderColor: vars.color.accent, fontWeight: 600 }, "&:hover": { borderColor: vars.color.accent } },
});
export const grid = style({ display: "grid", gap: "24px", gridTemplateColumns: "repeat(auto-fit, minmax(min(100%, 340px), 1fr))", alignItems: "start" });
export const terms = style({
  listStyle: "none",
  margin: 0,
  padding: 0,
  display: "grid",
  gap: "10px",
  gridTemplateColumns: "repeat(auto-fill, minmax(min(100%, 180px), 1fr))",
});
export const termCard = style({ border: `1px solid ${vars.color.border}`, borderRadius: vars.radius.medium, padding: "12px", display: "grid", gap: "4px" });
export const termName = style({ margin: 0, fontSize: "15px" });
export const rate = style({ margin: 0, fontSize: "20px", fontWeight: 700, color: vars.color.up, fontFamily: vars.font.mono });
export const small = style({ margin: 0, color: vars.color.textMuted, fontSize: "12px" });
export const quote = style({ margin: "16px 0 0", display: "grid", gap: "6px" });
export const quoteRow = style({ display: "flex", justifyContent: "space-between", gap: "12px", fontSize: "14px", flexWrap: "wrap" });
export const quoteValue = style({ margin: 0, fontFamily: vars.font.mono, fontWeight: 600 });
export const loans = style({ listStyle: "none", margin: 0, padding: 0, display: "grid", gap: "16px" });
export const loan = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.medium,
  padding: "16px",
  display: "grid",
  gap: "12px",
  gridTemplateColumns: "repeat(auto-fit, minmax(min(100%, 300px), 1fr))",
  selectors: { "&[data-asked='true']": { borderColor: vars.color.accent } },
});
export const loanHead = style({ gridColumn: "1 / -1", display: "flex", flexWrap: "wrap", gap: "4px 16px", alignItems: "baseline" });
export const loanTitle = style({ margin: 0, fontSize: "16px" });
export const facts = style({ margin: 0, display: "grid", gap: "6px", alignContent: "start" });
export const fact = style({ display: "flex", justifyContent: "space-between", gap: "12px", fontSize: "14px" });
export const value = style({ margin: 0, fontFamily: vars.font.mono, whiteSpace: "nowrap" });
export const meter = style({ width: "100%", height: "8px", accentColor: vars.color.accent });
export const warned = style({
  gridColumn: "1 / -1",
  margin: 0,
  padding: "8px 12px",
  borderRadius: vars.radius.medium,
  border: `1px solid ${vars.color.danger}`,
});
export const badge = style({ fontSize: "12px", color: vars.color.textMuted });
export const danger = style({ color: vars.color.danger, fontWeight: 600 });
export const empty = style({ margin: 0, color: vars.color.textMuted });
export const note = style({ margin: "8px 0 16px", color: vars.color.textMuted, fontSize: "12px" });
