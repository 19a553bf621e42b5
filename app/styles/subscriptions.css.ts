import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";
import { offerCard, offerGrid, page } from "~/styles/earn-pages.css";

/** The new-coin and ETF subscription pages (decision 053): the projects as cards, the selected one with its countdown and form, the records and the return application. */
export { lead, link, links, page } from "~/styles/earn-pages.css";
export { offerGrid as projects, offerCard as project };

/** The records page: twelve columns, so wider on a wide screen (still scrolling sideways in a narrow one). */
export const pageWide = style([page, { maxWidth: "1400px" }]);
export const projectSelected = style({ borderColor: vars.color.accent, boxShadow: `0 0 0 1px ${vars.color.accent}` });
export const projectHead = style({ display: "flex", justifyContent: "space-between", alignItems: "baseline", gap: "8px", flexWrap: "wrap" });
export const projectName = style({ margin: 0, fontSize: "16px", overflowWrap: "anywhere" });
export const projectLink = style({
  color: vars.color.text,
  textDecoration: "none",
  selectors: { "&:hover": { color: vars.color.accent, textDecoration: "underline" }, "&[aria-current='page']": { color: vars.color.accent } },
});
export const phase = style({
  fontSize: "12px",
  padding: "2px 8px",
  borderRadius: vars.radius.medium,
  border: `1px solid ${vars.color.border}`,
  color: vars.color.textMuted,
  whiteSpace: "nowrap",
});
export const phaseOpen = style({ borderColor: vars.color.up, color: vars.color.up });
export const price = style({ margin: 0, fontSize: "20px", fontWeight: 700, fontFamily: vars.font.mono, overflowWrap: "anywhere" });
export const small = style({ margin: 0, color: vars.color.textMuted, fontSize: "12px" });
export const facts = style({ margin: 0, display: "grid", gap: "6px", alignContent: "start" });
export const fact = style({ display: "flex", justifyContent: "space-between", gap: "12px", fontSize: "14px", flexWrap: "wrap" });
export const factLabel = style({ color: vars.color.textMuted });
export const value = style({ margin: 0, fontFamily: vars.font.mono, overflowWrap: "anywhere", textAlign: "end" });
export const bar = style({ height: "6px", borderRadius: "3px", background: vars.color.border, overflow: "hidden" });
export const barFill = style({ height: "100%", background: vars.color.accent });
export const detail = style({ display: "grid", gap: "24px", gridTemplateColumns: "repeat(auto-fit, minmax(min(100%, 320px), 1fr))", alignItems: "start" });
export const countdown = style({
  margin: "0 0 16px",
  padding: "10px 12px",
  borderRadius: vars.radius.medium,
  border: `1px solid ${vars.color.accent}`,
  fontFamily: vars.font.mono,
  fontSize: "15px",
  overflowWrap: "anywhere",
});
export const form = style({ display: "grid", gap: "8px", minWidth: 0 });
export const cost = style({ margin: 0, fontSize: "14px", overflowWrap: "anywhere" });
export const costValue = style({ fontFamily: vars.font.mono, fontWeight: 600 });
export const info = style({ margin: 0, padding: "8px 12px", borderRadius: vars.radius.medium, border: `1px solid ${vars.color.border}`, fontSize: "14px" });
export const empty = style({ margin: 0, color: vars.color.textMuted });
export const note = style({ margin: "8px 0 0", color: vars.color.textMuted, fontSize: "12px" });
export const filters = style({ display: "flex", flexWrap: "wrap", gap: "12px", alignItems: "end", margin: "0 0 16px" });
export const filterButton = style({ marginBottom: "16px" });
export const returns = style({ display: "grid", gap: "12px" });
export const amounts = style({ listStyle: "none", margin: 0, padding: 0, display: "flex", flexWrap: "wrap", gap: "8px 16px", fontFamily: vars.font.mono });
export const statusLine = style({ margin: 0, fontSize: "14px" });
export const statusValue = style({ fontWeight: 600 });
export const button = style({ justifySelf: "start" });
