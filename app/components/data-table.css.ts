import { createContainer, globalStyle, style, styleVariants } from "@vanilla-extract/css";
import { scrollCue } from "~/styles/scroll-cue";
import { vars } from "~/styles/theme.css";

/**
 * The looks of `DataTable`: `panel` (a framed table of an account page: orders, trades) and
 * `compact` (a table inside a trading-page panel). Either scrolls sideways inside its frame.
 */

/** The panel's frame: its width, not the table's, decides whether rows are cards. */
const frame = createContainer();
/** A frame narrower than this shows a `cards` table's rows as cards. */
const narrowFrame = "(max-width: 600px)";

export const wrap = styleVariants({
  panel: {
    overflowX: "auto",
    // Positioned: what is absolutely placed inside (a visually hidden header) is clipped with the table, never widens the page.
    position: "relative",
    // The frame is as wide as its place, whatever the table's width: the page never scrolls
    // sideways (WCAG 1.4.10 reflow), the table scrolls inside the frame.
    containerType: "inline-size",
    containerName: frame,
    border: `1px solid ${vars.color.border}`,
    borderRadius: vars.radius.medium,
    // A shadow at an edge past which the table goes on.
    ...scrollCue(vars.color.background),
  },
  compact: { overflowX: "auto", position: "relative" },
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
  borderBottom: `1px solid ${vars.color.border}`,
});
const tdBase = style({ padding: "10px 8px", borderBottom: `1px solid ${vars.color.border}`, verticalAlign: "middle", whiteSpace: "nowrap" });

/** A column holding a form: more of a fixed-layout table's width than its equal share. */
export const wideColumn = style({ width: "20%" });

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

/**
 * `reflow="cards"` in a narrow frame: each row a card, each value on a line of its own after its
 * column's label (`data-label`; the label is not read out, the cell keeps its column header).
 */
export const cards = style({});
globalStyle(`${cards} table`, { "@container": { [`${frame} ${narrowFrame}`]: { minWidth: 0, width: "100%" } } });
globalStyle(`${cards} thead`, {
  "@container": {
    // Visually hidden, still the cells' headers for a screen reader.
    [`${frame} ${narrowFrame}`]: { position: "absolute", width: "1px", height: "1px", overflow: "hidden", clipPath: "inset(50%)", whiteSpace: "nowrap" },
  },
});
globalStyle(`${cards} tbody, ${cards} tr`, { "@container": { [`${frame} ${narrowFrame}`]: { display: "block" } } });
globalStyle(`${cards} tr`, {
  "@container": { [`${frame} ${narrowFrame}`]: { padding: "8px 12px", borderBottom: `1px solid ${vars.color.border}` } },
});
globalStyle(`${cards} tr:last-child`, { "@container": { [`${frame} ${narrowFrame}`]: { borderBottom: "none" } } });
globalStyle(`${cards} td`, {
  "@container": {
    [`${frame} ${narrowFrame}`]: {
      display: "flex",
      flexWrap: "wrap",
      justifyContent: "space-between",
      alignItems: "center",
      gap: "4px 12px",
      minWidth: 0,
      padding: "6px 0",
      border: "none",
      textAlign: "right",
      whiteSpace: "normal",
      overflowWrap: "anywhere",
    },
  },
});
// A cell without a label (the row's buttons) puts them at the start of its line.
globalStyle(`${cards} td:not([data-label])`, { "@container": { [`${frame} ${narrowFrame}`]: { justifyContent: "flex-start" } } });
globalStyle(`${cards} td[data-label]::before`, {
  "@container": {
    [`${frame} ${narrowFrame}`]: {
      content: 'attr(data-label) / ""',
      color: vars.color.textMuted,
      fontFamily: vars.font.body,
      textAlign: "left",
    },
  },
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
