import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";
import { offerCard, offerGrid } from "~/styles/earn-pages.css";

/** The staking pages (decision 052): the products of a coin as cards with their stake forms, the member's stakes, the redemption preview. */
export { lead, link, links, page } from "~/styles/earn-pages.css";
export { offerGrid as products, offerCard as product };

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
export const productHead = style({ display: "flex", justifyContent: "space-between", alignItems: "baseline", gap: "8px", flexWrap: "wrap" });
export const termName = style({ margin: 0, fontSize: "16px" });
export const rate = style({ margin: 0, fontSize: "22px", fontWeight: 700, color: vars.color.up, fontFamily: vars.font.mono });
export const small = style({ margin: 0, color: vars.color.textMuted, fontSize: "12px" });
export const facts = style({ margin: 0, display: "grid", gap: "6px", alignContent: "start" });
/** A list of facts followed by more of the page (the redemption's stake and preview). */
export const block = style({ margin: "0 0 20px", display: "grid", gap: "6px" });
export const fact = style({ display: "flex", justifyContent: "space-between", gap: "12px", fontSize: "14px", flexWrap: "wrap" });
export const factLabel = style({ color: vars.color.textMuted });
export const value = style({ margin: 0, fontFamily: vars.font.mono, overflowWrap: "anywhere", textAlign: "end" });
export const summary = style({
  listStyle: "none",
  margin: "0 0 8px",
  padding: 0,
  display: "grid",
  gap: "12px",
  gridTemplateColumns: "repeat(auto-fill, minmax(min(100%, 300px), 1fr))",
});
export const summaryCard = style({ border: `1px solid ${vars.color.border}`, borderRadius: vars.radius.medium, padding: "12px", display: "grid", gap: "6px" });
export const summaryTitle = style({ margin: 0, fontSize: "15px" });
export const notice = style({
  margin: "0 0 12px",
  padding: "8px 12px",
  borderRadius: vars.radius.medium,
  border: `1px solid ${vars.color.danger}`,
});
export const info = style({ margin: 0, padding: "8px 12px", borderRadius: vars.radius.medium, border: `1px solid ${vars.color.accent}` });
export const asked = style({ fontWeight: 600 });
export const badge = style({ fontSize: "12px", color: vars.color.textMuted, fontWeight: 400 });
export const danger = style({ color: vars.color.danger, fontWeight: 600 });
export const empty = style({ margin: 0, color: vars.color.textMuted });
export const note = style({ margin: "8px 0 16px", color: vars.color.textMuted, fontSize: "12px" });
export const grid = style({ display: "grid", gap: "24px", gridTemplateColumns: "repeat(auto-fit, minmax(min(100%, 320px), 1fr))", alignItems: "start" });
export const filters = style({ display: "flex", flexWrap: "wrap", gap: "12px", alignItems: "end", margin: "0 0 16px" });
export const filterButton = style({ marginBottom: "16px" });
