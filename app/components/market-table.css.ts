import { style, styleVariants } from "@vanilla-extract/css";
import { scrollCue } from "~/styles/scroll-cue";
import { vars } from "~/styles/theme.css";

const narrow = "(max-width: 640px)";
/** A tablet: every column, closer together, so the volume fits beside the rest. */
const medium = "(max-width: 900px)";

export const wrap = style({
  overflowX: "auto",
  // The table's width never widens the page: on a narrow screen the table scrolls inside its frame.
  contain: "inline-size",
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.large,
  // A shadow at an edge past which the table goes on (the volume at a tablet's width).
  ...scrollCue(vars.color.background),
  selectors: { "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: "2px" } },
});
export const table = style({ minWidth: "640px", "@media": { [narrow]: { minWidth: 0 } } });
export const th = style({
  textAlign: "right",
  padding: "12px 16px",
  color: vars.color.textMuted,
  fontWeight: 500,
  fontSize: "12px",
  whiteSpace: "nowrap",
  borderBottom: `1px solid ${vars.color.border}`,
  "@media": { [medium]: { padding: "12px 8px", whiteSpace: "normal" }, [narrow]: { padding: "10px 6px" } },
});
export const thStart = style([th, { textAlign: "left" }]);
export const sortLink = style({
  display: "inline-flex",
  alignItems: "center",
  gap: "4px",
  color: "inherit",
  textDecoration: "none",
  selectors: { "&:hover": { color: vars.color.text } },
});
export const sortLinkActive = style([sortLink, { color: vars.color.text, fontWeight: 700 }]);
export const sortMark = style({ fontSize: "10px", minWidth: "10px" });
export const row = style({
  // The pair's link covers the whole row (see `rowLink`).
  position: "relative",
  selectors: { "&:hover": { background: vars.color.surface } },
});
export const td = style({
  textAlign: "right",
  padding: "14px 16px",
  fontFamily: vars.font.mono,
  whiteSpace: "nowrap",
  borderBottom: `1px solid ${vars.color.border}`,
  "@media": { [medium]: { padding: "14px 8px" }, [narrow]: { padding: "12px 6px", fontSize: "13px" } },
});
/** Columns left out on a narrow screen (high and low); the rest fits a phone. */
export const wide = style({ "@media": { [narrow]: { display: "none" } } });
export const pairCell = style([td, { textAlign: "left", fontFamily: vars.font.body, fontWeight: 600 }]);
export const pair = style({ display: "inline-flex", alignItems: "center", gap: "10px" });
export const rowLink = style({
  color: vars.color.text,
  textDecoration: "none",
  selectors: {
    "&::after": { content: '""', position: "absolute", inset: 0 },
    "&:hover": { color: vars.color.accentStrong },
    "&:focus-visible": { outline: "none" },
    "&:focus-visible::after": { outline: `2px solid ${vars.color.focus}`, outlineOffset: "-2px", borderRadius: vars.radius.small },
  },
});
export const quote = style({ color: vars.color.textMuted, fontWeight: 400 });
export const avatar = style({ width: "24px", height: "24px", borderRadius: "50%", flex: "none", "@media": { [narrow]: { display: "none" } } });
export const avatarLetter = style([
  avatar,
  {
    display: "inline-grid",
    placeItems: "center",
    background: vars.color.surfaceRaised,
    border: `1px solid ${vars.color.border}`,
    color: vars.color.textMuted,
    fontSize: "11px",
    fontWeight: 700,
    "@media": { [narrow]: { display: "none" } },
  },
]);
export const change = styleVariants({
  up: { color: vars.color.up },
  down: { color: vars.color.down },
  flat: { color: vars.color.textMuted },
  none: { color: vars.color.textMuted },
});
export const arrow = style({ fontSize: "10px", marginRight: "4px" });
export const leadCell = style([td, { width: "44px", textAlign: "center", padding: "6px 4px 6px 12px", "@media": { [narrow]: { padding: "6px 0 6px 6px" } } }]);
export const leadHead = style([th, { width: "44px", padding: "12px 4px 12px 12px" }]);
export const empty = style({ padding: "32px 16px", textAlign: "center", color: vars.color.textMuted, whiteSpace: "normal" });
