import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

/**
 * The console's review queues (identities, withdrawals): a submission per card with its images
 * and decision, a withdrawal per table row. Made for 1440 px; at 768 px the card's parts stack.
 */
const narrow = "screen and (max-width: 1100px)";

export const intro = style({ color: vars.color.textMuted, margin: "0 0 16px" });
export const empty = style({
  padding: "40px 16px",
  textAlign: "center",
  color: vars.color.textMuted,
  border: `1px dashed ${vars.color.border}`,
  borderRadius: vars.radius.medium,
  margin: 0,
});

/** The identities waiting: one card each, the oldest first. */
export const list = style({ listStyle: "none", margin: 0, padding: 0, display: "grid", gap: "16px" });
export const item = style({
  display: "grid",
  gridTemplateColumns: "minmax(180px, 220px) minmax(0, 1fr) minmax(240px, 280px)",
  gap: "20px",
  padding: "16px",
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.medium,
  background: vars.color.background,
  "@media": { [narrow]: { gridTemplateColumns: "minmax(0, 1fr)" } },
});
export const itemTitle = style({ fontSize: "16px", margin: "0 0 8px", fontVariantNumeric: "tabular-nums" });
export const facts = style({ display: "grid", gridTemplateColumns: "auto minmax(0, 1fr)", gap: "4px 12px", margin: 0, fontSize: "13px" });
globalStyle(`${facts} dt`, { color: vars.color.textMuted });
globalStyle(`${facts} dd`, { margin: 0, overflowWrap: "anywhere" });

/** The three ID images: thumbnails, each a link to the full image in a new tab. */
export const thumbs = style({ listStyle: "none", margin: 0, padding: 0, display: "flex", flexWrap: "wrap", gap: "12px", alignContent: "start" });
export const thumbLink = style({
  display: "grid",
  gap: "6px",
  justifyItems: "center",
  padding: "6px",
  borderRadius: vars.radius.small,
  border: `1px solid ${vars.color.border}`,
  color: "inherit",
  fontSize: "13px",
  textDecoration: "none",
  selectors: { "&:hover": { borderColor: vars.color.accent }, "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: "2px" } },
});
export const thumb = style({
  display: "block",
  width: "144px",
  height: "100px",
  objectFit: "contain",
  background: vars.color.surfaceRaised,
  borderRadius: vars.radius.small,
});

/** An item's decision: approve, or reject with the reason the member reads. */
export const decision = style({ display: "grid", gap: "12px", alignContent: "start", minWidth: "170px" });
export const buttons = style({ display: "flex", flexWrap: "wrap", gap: "8px", alignItems: "center" });
const buttonBase = {
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  minHeight: "34px",
  padding: "0 14px",
  borderRadius: vars.radius.small,
  fontWeight: 600,
  whiteSpace: "nowrap",
  cursor: "pointer",
  font: "inherit",
} as const;
export const approve = style({
  ...buttonBase,
  border: 0,
  background: vars.color.accent,
  color: vars.color.accentText,
  selectors: { "&:hover": { background: vars.color.accentHover }, "&:disabled": { opacity: 0.6, cursor: "progress" } },
});
export const reject = style({
  ...buttonBase,
  border: `1px solid ${vars.color.danger}`,
  background: "transparent",
  color: vars.color.danger,
  selectors: { "&:disabled": { opacity: 0.6, cursor: "progress" } },
});
export const rejectForm = style({ display: "grid", gap: "6px" });
export const label = style({ fontWeight: 600, fontSize: "13px" });
export const textarea = style({
  width: "100%",
  minHeight: "64px",
  padding: "8px 10px",
  resize: "vertical",
  background: vars.color.background,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.small,
  color: vars.color.text,
  font: "inherit",
  fontSize: "13px",
  selectors: { '&[aria-invalid="true"]': { borderColor: vars.color.danger }, "&:focus-visible": { borderColor: vars.color.focus } },
});
export const hint = style({ color: vars.color.textMuted, fontSize: "12px", margin: 0 });
/** "Reject…" folded in a table row: the reason field opens under it. */
export const fold = style({ display: "grid", gap: "8px" });
export const foldSummary = style({
  cursor: "pointer",
  color: vars.color.danger,
  fontWeight: 600,
  fontSize: "13px",
  minHeight: "24px",
  width: "fit-content",
});

/** The withdrawals' states, as links (they work without JavaScript). */
export const states = style({
  display: "flex",
  flexWrap: "wrap",
  gap: "4px",
  margin: "0 0 16px",
  padding: 0,
  listStyle: "none",
  borderBottom: `1px solid ${vars.color.border}`,
});
globalStyle(`${states} a`, {
  display: "inline-block",
  padding: "8px 12px",
  borderBottom: "2px solid transparent",
  fontWeight: 600,
  color: vars.color.textMuted,
  textDecoration: "none",
});
globalStyle(`${states} a[aria-current="page"]`, { color: vars.color.text, borderBottomColor: vars.color.accent });
globalStyle(`${states} a:hover`, { color: vars.color.text });

/** A withdrawal's destination: the full address, monospace, wrapped anywhere. */
export const address = style({
  display: "block",
  fontFamily: vars.font.mono,
  fontSize: "12px",
  whiteSpace: "normal",
  wordBreak: "break-all",
  maxWidth: "44ch",
  minWidth: "22ch",
});
export const mono = style({ fontFamily: vars.font.mono, fontSize: "12px", fontVariantNumeric: "tabular-nums" });
export const stack = style({ display: "grid", gap: "2px", whiteSpace: "normal" });
export const small = style({ color: vars.color.textMuted, fontSize: "12px" });
/** An amount and its coin stay on one line. */
export const nowrap = style({ whiteSpace: "nowrap" });
/** The decision cell of a withdrawal row: wraps, never widens the table beyond its place. */
export const decisionCell = style({ display: "grid", gap: "8px", whiteSpace: "normal", minWidth: "170px", maxWidth: "260px" });

/** The withdrawals' table: four columns that fit a 768 px window without the table's own minimum width. */
export const table = style({});
globalStyle(`${table} table`, { minWidth: 0, width: "100%" });
// A row with its reason field open is tall: every cell reads from its top.
globalStyle(`${table} td`, { verticalAlign: "top" });
