import { globalStyle, style, styleVariants } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

/**
 * The looks of `DataTable`: `panel` (a framed table of an account page: orders, trades) and
 * `compact` (a table inside a trading-page panel). Either scrolls sideways inside its frame.
 */

export const wrap = styleVariants({
  panel: {
    overflowX: "auto",
    background: vars.color.background,
    border: `1px solid ${vars.color.border}`,
    borderRadius: vars.radius.medium,
  },
  compact: { overflowX: "auto" },
});
globalStyle(`${wrap.panel}:focus-visible, ${wrap.compact}:focus-visible`, { outline: `2px solid ${vars.color.accent}`, outlineOffset: "2px" });

export const table = styleVariants({
  panel: { minWidth: "760px", fontSize: "12px" },
  compact: { width: "100%", minWidth: "720px", borderCollapse: "collapse", fontFamily: vars.font.mono, fontSize: "12px", tableLayout: "fixed" },
});

const thBase = style({
  textAlign: "left",
  padding: "10px 8px",
  color: vars.color.textMuted,
  fontWeight: 500,
  fontSize: "12px",
  whiteSpace: "nowrap",
  background: vars.color.background,
  borderBottom: `1px solid ${vars.color.border}`,
});
const tdBase = style({ padding: "10px 8px", borderBottom: `1px solid ${vars.color.border}`, verticalAlign: "middle", whiteSpace: "nowrap" });

/** Header and cell classes of the panel look, by the column's kind. */
export const th = styleVariants({ text: [thBase], number: [thBase, { textAlign: "right" }] });
export const td = styleVariants({
  text: [tdBase],
  number: [tdBase, { textAlign: "right", fontFamily: vars.font.mono, fontVariantNumeric: "tabular-nums" }],
  /** Date and time may sit on two lines. */
  time: [tdBase, { whiteSpace: "normal", minWidth: "112px" }],
  /** A status (and why it ended) may wrap. */
  status: [tdBase, { whiteSpace: "normal", minWidth: "110px" }],
});

// The compact look: numbers to the right, the first column to the left.
globalStyle(`${table.compact} th`, { color: vars.color.textMuted, fontWeight: 400, textAlign: "right", padding: "4px 12px", fontFamily: vars.font.body });
globalStyle(`${table.compact} th:first-child, ${table.compact} td:first-child`, { textAlign: "left" });
globalStyle(`${table.compact} td`, { textAlign: "right", padding: "2px 12px", whiteSpace: "nowrap", overflow: "hidden", textOverflow: "ellipsis" });

export const empty = styleVariants({
  panel: { padding: "40px 16px", textAlign: "center", color: vars.color.textMuted, display: "grid", gap: "8px", justifyItems: "center" },
  compact: { padding: "16px 12px", color: vars.color.textMuted, fontSize: "13px", textAlign: "center" },
});
globalStyle(`${empty.panel} p, ${empty.compact} p`, { margin: 0 });

export const paging = style({ display: "flex", alignItems: "center", justifyContent: "flex-end", gap: "12px", marginTop: "12px", flexWrap: "wrap" });
export const pageInfo = style({ color: vars.color.textMuted, fontSize: "13px" });
const pageButtonBase = style({
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  height: "30px",
  padding: "0 10px",
  borderRadius: vars.radius.small,
  fontWeight: 600,
  fontSize: "13px",
  whiteSpace: "nowrap",
  border: `1px solid ${vars.color.border}`,
  background: "transparent",
  color: vars.color.text,
});
export const pageLink = style([pageButtonBase, { selectors: { "&:hover": { borderColor: vars.color.accent } } }]);
export const pageDisabled = style([pageButtonBase, { color: vars.color.textMuted, cursor: "not-allowed", opacity: 0.6 }]);
