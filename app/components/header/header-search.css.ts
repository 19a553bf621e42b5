import { keyframes, style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";
import { NARROW_HEADER } from "./header.css";

/** The search box's frame: the panel hangs under it. */
export const wrap = style({ position: "relative" });

/** The panel under the box (with JavaScript): hot list, tabs with results, or the empty state. */
export const panel = style({
  position: "absolute",
  top: "calc(100% + 8px)",
  left: 0,
  zIndex: 60,
  width: "380px",
  maxHeight: "min(70vh, 520px)",
  overflowY: "auto",
  padding: "8px",
  background: vars.color.surfaceRaised,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.medium,
  boxShadow: vars.shadow.menu,
  outline: "none",
  // In the narrow menu panel the results push what follows down instead of covering it.
  "@media": { [NARROW_HEADER]: { position: "static", width: "auto", marginTop: "8px" } },
});

export const heading = style({ margin: "4px 12px 6px", fontSize: "12px", fontWeight: 600, color: vars.color.textMuted });

export const list = style({ margin: 0, padding: 0, listStyle: "none" });
export const option = style({
  selectors: {
    "&:hover": { background: vars.color.surface },
    '&[aria-selected="true"]': { background: vars.color.surface, boxShadow: `inset 3px 0 0 ${vars.color.accent}` },
  },
});

export const tabs = style({ display: "flex", gap: "4px", margin: "0 4px 6px", borderBottom: `1px solid ${vars.color.border}` });
export const tab = style({
  padding: "8px 10px",
  margin: "0 0 -1px",
  background: "transparent",
  border: 0,
  borderBottom: "2px solid transparent",
  color: vars.color.textMuted,
  fontWeight: 600,
  cursor: "pointer",
  selectors: { '&[aria-selected="true"]': { color: vars.color.text, borderBottomColor: vars.color.accent } },
});

export const note = style({ margin: "8px 12px", color: vars.color.textMuted, fontSize: "13px" });
export const error = style({ margin: "8px 12px", color: vars.color.danger, fontSize: "13px" });
export const loading = style({ display: "flex", alignItems: "center", gap: "8px", margin: "8px 12px", color: vars.color.textMuted, fontSize: "13px" });
const spin = keyframes({ to: { transform: "rotate(360deg)" } });
export const spinner = style({
  width: "14px",
  height: "14px",
  border: `2px solid ${vars.color.border}`,
  borderTopColor: vars.color.accent,
  borderRadius: "50%",
  animation: `${spin} 0.8s linear infinite`,
  "@media": { "(prefers-reduced-motion: reduce)": { animation: "none" } },
});
