import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";
import { menuPanel, NARROW_HEADER } from "./header.css";

/** Pop-up menus built on <details>: they open by keyboard and without JavaScript. */
export const details = style({
  position: "relative",
  // An open pop-up in the narrow site menu takes its own row.
  "@media": { [NARROW_HEADER]: { selectors: { [`${menuPanel} &[open]`]: { flexBasis: "100%" } } } },
});
export const panel = style({
  position: "absolute",
  right: 0,
  top: "calc(100% + 6px)",
  zIndex: 60,
  minWidth: "220px",
  maxHeight: "70vh",
  overflowY: "auto",
  padding: "8px",
  background: vars.color.surfaceRaised,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.medium,
  boxShadow: vars.shadow.menu,
  // Inside the narrow site menu a pop-up opens in the flow of the panel, never off-screen.
  "@media": { [NARROW_HEADER]: { selectors: { [`${menuPanel} &`]: { position: "static", marginTop: "6px", width: "auto !important", boxShadow: "none" } } } },
});
export const heading = style({ margin: "4px 8px 8px", fontSize: "12px", color: vars.color.textMuted, fontWeight: 600 });
export const list = style({ margin: 0, padding: 0, listStyle: "none", display: "grid", gap: "2px" });
export const grid = style({ gridTemplateColumns: "repeat(3, minmax(0, 1fr))" });
export const option = style({
  display: "flex",
  alignItems: "center",
  justifyContent: "space-between",
  gap: "8px",
  width: "100%",
  padding: "8px 10px",
  background: "transparent",
  border: "1px solid transparent",
  borderRadius: vars.radius.small,
  textAlign: "left",
  selectors: {
    "&:hover": { background: vars.color.surface },
    '&[aria-current="true"]': { color: vars.color.accentStrong, borderColor: vars.color.border },
  },
});
export const muted = style({ color: vars.color.textMuted, fontSize: "12px" });
