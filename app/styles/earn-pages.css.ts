import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

/**
 * What the earn pages share (staking, decision 052; subscriptions, decision 053): the page's frame,
 * its lead and links, and offers (a product, a project) as cards in a grid.
 */
export const page = style({ maxWidth: "1080px", margin: "0 auto", padding: "32px 16px 64px", width: "100%", display: "grid", gap: "24px", minWidth: 0 });
export const lead = style({ margin: "0 0 16px", color: vars.color.textMuted });
export const links = style({ display: "flex", flexWrap: "wrap", gap: "8px 20px", margin: "0 0 16px", fontSize: "14px" });
export const link = style({ color: vars.color.accent, textDecoration: "underline", textUnderlineOffset: "3px" });
export const offerGrid = style({
  listStyle: "none",
  margin: 0,
  padding: 0,
  display: "grid",
  gap: "16px",
  gridTemplateColumns: "repeat(auto-fill, minmax(min(100%, 260px), 1fr))",
});
export const offerCard = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.medium,
  padding: "16px",
  display: "grid",
  gap: "10px",
  alignContent: "start",
  minWidth: 0,
});
