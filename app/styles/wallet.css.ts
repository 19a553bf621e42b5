import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

/** The wallet pages (assets overview, transfer): what the account-centre styles do not cover. */
export const totalLabel = style({ margin: 0, color: vars.color.textMuted, fontSize: "13px" });
export const total = style({ margin: "4px 0 16px", fontSize: "28px", fontWeight: 700, display: "flex", flexWrap: "wrap", alignItems: "baseline", gap: "12px" });
export const totalUsdt = style({ fontSize: "14px", fontWeight: 500, color: vars.color.textMuted });
export const accounts = style({
  listStyle: "none",
  margin: "0 0 16px",
  padding: 0,
  display: "grid",
  gridTemplateColumns: "repeat(auto-fit, minmax(160px, 1fr))",
  gap: "12px",
});
export const account = style({
  display: "grid",
  gap: "4px",
  padding: "12px",
  borderRadius: vars.radius.medium,
  background: vars.color.surfaceRaised,
});
export const actions = style({ display: "flex", flexWrap: "wrap", gap: "12px", alignItems: "center" });
const button = {
  display: "inline-flex",
  alignItems: "center",
  height: "34px",
  padding: "0 14px",
  borderRadius: vars.radius.small,
  border: `1px solid ${vars.color.border}`,
  background: "transparent",
  color: vars.color.text,
  fontWeight: 600,
} as const;
export const action = style({ ...button, selectors: { "&:hover": { borderColor: vars.color.accent } } });
export const inline = style({ display: "inline" });
export const toggle = style({
  ...button,
  cursor: "pointer",
  selectors: {
    '&[aria-pressed="true"]': { borderColor: vars.color.accent, color: vars.color.accentStrong },
    "&:hover": { borderColor: vars.color.accent },
  },
});
export const coin = style({ display: "inline-flex", gap: "6px", alignItems: "baseline", whiteSpace: "nowrap" });
export const balances = style({ margin: "16px 0 0", display: "grid", gap: "6px" });
export const balance = style({ display: "flex", justifyContent: "space-between", gap: "12px", fontSize: "13px" });
export const amountRow = style({ display: "flex", gap: "8px", alignItems: "flex-end" });
export const filters = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fit, minmax(140px, 1fr))",
  gap: "0 12px",
  alignItems: "end",
  marginBottom: "8px",
});
/** A filter of one or two fields: the fields keep their width and the button its own. */
export const filtersShort = style([filters, { gridTemplateColumns: "repeat(auto-fit, minmax(160px, 240px))" }]);
export const filterActions = style({ display: "flex", flexWrap: "wrap", gap: "8px", alignItems: "center", marginBottom: "16px" });
/** Several buttons under a filter (search, reset, download): a row of their own, wrapping on a phone. */
export const filterActionsRow = style([filterActions, { gridColumn: "1 / -1" }]);
globalStyle(`${filterActionsRow} > button`, { width: "auto", minWidth: "140px", padding: "0 20px" });
export const positive = style({ color: vars.color.up, whiteSpace: "nowrap" });
export const negative = style({ color: vars.color.down, whiteSpace: "nowrap" });
export const deposit = style({ display: "grid", gap: "12px", justifyItems: "start" });
export const qr = style({ width: "176px", height: "176px", background: "#fff", padding: "8px", borderRadius: vars.radius.medium });
globalStyle(`${qr} svg`, { width: "100%", height: "100%", display: "block" });
export const depositFacts = style({ display: "grid", gridTemplateColumns: "max-content 1fr", gap: "8px 16px", margin: 0 });
globalStyle(`${depositFacts} dd`, { margin: 0 });
export const address = style({ margin: 0, fontFamily: vars.font.mono, wordBreak: "break-all", fontWeight: 600 });

/** The withdrawal's fee, what arrives, what leaves the balance and the daily limit: label and value on one line. */
export const withdrawFacts = style({
  display: "grid",
  gridTemplateColumns: "max-content 1fr",
  gap: "6px 16px",
  margin: "0 0 16px",
  fontSize: "14px",
});
globalStyle(`${withdrawFacts} dd`, { margin: 0, textAlign: "end", fontVariantNumeric: "tabular-nums" });

/** A note just above a form's submit button. */
export const submitNote = style({ margin: "0 0 16px", color: vars.color.textMuted, fontSize: "13px" });

/** A saved address in the address book's table: monospace, wrapped anywhere (its cell is `nowrap`) rather than widening the table. */
export const savedAddress = style({ display: "inline-block", minWidth: "18em", fontFamily: vars.font.mono, whiteSpace: "normal", wordBreak: "break-all" });
/** The destination tag under a saved address. */
export const savedTag = style({ display: "block", color: vars.color.textMuted, fontSize: "12px", marginTop: "2px" });
