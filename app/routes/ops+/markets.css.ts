import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

/**
 * The console's markets page: a market per row, its changes (halt or resume, the rules folded
 * under "Change rules…") in the last column. Made for 1440 px; at 768 px the columns wrap their
 * lines instead of widening the table.
 */

export const table = style({});
globalStyle(`${table} table`, { minWidth: 0, width: "100%" });
// A row with its rules form open is tall: every cell reads from its top.
globalStyle(`${table} td`, { verticalAlign: "top" });

export const halted = style({ color: vars.color.danger, fontWeight: 600 });

/** A refusal's fields, each a link to its field. */
export const alertList = style({ margin: "6px 0 0", paddingLeft: "20px" });
globalStyle(`${alertList} a`, { color: "inherit", textDecoration: "underline" });

/** A row's changes: never widens the table beyond its place. */
export const changes = style({ display: "grid", gap: "10px", whiteSpace: "normal", minWidth: "150px", maxWidth: "240px" });
export const resume = style({
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  minHeight: "34px",
  padding: "0 14px",
  borderRadius: vars.radius.small,
  border: `1px solid ${vars.color.accent}`,
  background: "transparent",
  color: vars.color.text,
  fontWeight: 600,
  whiteSpace: "nowrap",
  cursor: "pointer",
  font: "inherit",
  selectors: { "&:hover": { borderColor: vars.color.accentHover }, "&:disabled": { opacity: 0.6, cursor: "progress" } },
});
export const foldSummary = style({ cursor: "pointer", fontWeight: 600, fontSize: "13px", minHeight: "24px", width: "fit-content" });
export const rulesForm = style({ display: "grid", gap: "8px" });
export const field = style({ display: "grid", gap: "4px" });
export const input = style({
  width: "100%",
  minWidth: 0,
  fontVariantNumeric: "tabular-nums",
  selectors: { '&[aria-invalid="true"]': { borderColor: vars.color.danger }, "&:focus-visible": { borderColor: vars.color.focus } },
});
export const error = style({ margin: 0, color: vars.color.danger, fontSize: "12px" });
