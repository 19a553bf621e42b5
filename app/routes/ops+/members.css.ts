import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

/**
 * The console's members pages: the search with its results, and a member's page (facts, changes,
 * then the tables of balances, orders, devices and logins). Made for 1440 px; at 768 px the facts
 * and the changes stack.
 */

export const searchField = style({ minWidth: "min(360px, 100%)", flex: "1 1 320px", maxWidth: "520px" });
/** The search's hint, on its own line under the field and its buttons. */
export const searchHint = style({ flexBasis: "100%", margin: "-4px 0 0" });
/** A member's uid in the results: a link that looks like one. */
export const link = style({ color: vars.color.accentStrong, textDecoration: "underline", fontVariantNumeric: "tabular-nums" });

/** A member's states as small labels (frozen, identity, authenticator). */
export const states = style({ display: "flex", flexWrap: "wrap", gap: "4px", margin: 0, padding: 0, listStyle: "none" });
export const state = style({
  display: "inline-block",
  padding: "1px 8px",
  borderRadius: vars.radius.small,
  border: `1px solid ${vars.color.border}`,
  fontSize: "12px",
  fontWeight: 600,
  whiteSpace: "nowrap",
});
export const frozen = style({ borderColor: vars.color.danger, color: vars.color.danger });

export const head = style({
  display: "grid",
  gridTemplateColumns: "minmax(0, 1fr) minmax(280px, 360px)",
  gap: "24px",
  alignItems: "start",
  "@media": { "screen and (max-width: 1100px)": { gridTemplateColumns: "minmax(0, 1fr)" } },
});
export const facts = style({ display: "grid", gridTemplateColumns: "max-content minmax(0, 1fr)", gap: "6px 16px", margin: 0, fontSize: "14px" });
globalStyle(`${facts} dt`, { color: vars.color.textMuted });
globalStyle(`${facts} dd`, { margin: 0, overflowWrap: "anywhere" });

/** The changes an operator's role allows, each a form with its reason. */
export const changes = style({ display: "grid", gap: "16px", alignContent: "start" });
export const change = style({
  display: "grid",
  gap: "6px",
  padding: "12px",
  borderRadius: vars.radius.small,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surfaceRaised,
});
/** A change form that stands alone in its card (the deposits' hand credit): no wider than its fields need. */
export const narrowChange = style({ maxWidth: "560px" });
export const changeTitle = style({ fontSize: "15px", margin: 0 });

export const section = style({ display: "grid", gap: "8px" });
export const sectionTitle = style({ fontSize: "17px", margin: "8px 0 0" });
export const back = style({ display: "inline-block", marginBottom: "12px", color: vars.color.accentStrong, textDecoration: "underline" });
export const mono = style({ fontFamily: vars.font.mono, fontSize: "12px", overflowWrap: "anywhere" });
