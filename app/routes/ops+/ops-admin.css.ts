import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

/** The operators and audit pages' own pieces, beside the console's frame (`~/styles/ops.css`). */

export const note = style({ fontSize: "13px", marginBottom: "16px" });
export const alert = style({
  margin: "0 0 16px",
  padding: "10px 12px",
  color: vars.color.danger,
  background: vars.color.background,
  border: `1px solid ${vars.color.danger}`,
  borderRadius: vars.radius.small,
});
export const alertLine = style({ margin: 0 });
export const strong = style({ fontWeight: 600 });
export const you = style({ fontSize: "12px" });
export const disabled = style({ color: vars.color.danger, fontWeight: 600 });
/**
 * A row's forms: the role change, then access and authenticator. Positioned, so the select's
 * visually hidden label (absolute) stays inside the table's scrolling frame instead of widening the page.
 */
export const rowActions = style({ position: "relative", display: "flex", flexWrap: "wrap", gap: "8px 16px", alignItems: "center" });

export const addCard = style({ maxWidth: "720px" });
export const addGrid = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fit, minmax(220px, 1fr))",
  columnGap: "16px",
  alignItems: "start",
});
export const submit = style({ maxWidth: "240px" });

/** The audit filter: as many fields a line as fit (a date and time input needs ~230 px), the note and the buttons below. */
export const filters = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fill, minmax(min(100%, 232px), 1fr))",
  gap: "12px 16px",
  alignItems: "start",
  marginBottom: "16px",
});
export const filterField = style({ marginBottom: 0, minWidth: 0 });
export const filterActions = style({ gridColumn: "1 / -1", display: "flex", flexWrap: "wrap", gap: "8px", alignItems: "center" });
export const utcHint = style({ gridColumn: "1 / -1" });
/** An action's or a target's name: as the log writes it. */
export const token = style({ fontFamily: vars.font.mono, fontSize: "12px" });
/** Before → after: compact JSON that wraps inside its column. */
export const change = style({
  display: "grid",
  gridTemplateColumns: "minmax(0, 1fr) auto minmax(0, 1fr)",
  gap: "8px",
  alignItems: "start",
  minWidth: "280px",
  maxWidth: "460px",
});
/** A before or after value: compact JSON, wrapped at its commas (or anywhere, for a long value). */
export const json = style({ fontFamily: vars.font.mono, fontSize: "12px", whiteSpace: "normal", overflowWrap: "anywhere" });
export const pager = style({ display: "flex", justifyContent: "flex-end", gap: "16px", marginTop: "12px", flexWrap: "wrap" });
