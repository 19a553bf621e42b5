import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

/**
 * Below this width the header folds everything but the logo into the menu panel (the full row
 * needs ~1,050 px in the longest language).
 */
export const NARROW_HEADER = "screen and (max-width: 1100px)";
const narrow = NARROW_HEADER;

export const skipLink = style({
  position: "absolute",
  left: "8px",
  top: "-48px",
  zIndex: 100,
  padding: "8px 12px",
  background: vars.color.accent,
  color: vars.color.accentText,
  borderRadius: vars.radius.small,
  selectors: { "&:focus": { top: "8px" } },
});

export const header = style({
  position: "sticky",
  top: 0,
  zIndex: 50,
  display: "flex",
  alignItems: "center",
  gap: "20px",
  height: "64px",
  padding: "0 24px",
  background: vars.color.surface,
  borderBottom: `1px solid ${vars.color.border}`,
});

export const logo = style({ display: "flex", alignItems: "center", gap: "8px", flexShrink: 0, fontWeight: 700, fontSize: "18px" });
export const logoImage = style({ height: "28px", width: "auto", display: "block" });

/** The menu button: only on narrow screens. A summary-only <details>, so it needs no JavaScript. */
export const menuToggle = style({ display: "none", marginLeft: "auto", "@media": { [narrow]: { display: "block" } } });
export const menuButton = style({
  display: "inline-flex",
  alignItems: "center",
  gap: "8px",
  minHeight: "40px",
  padding: "0 12px",
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.small,
  fontWeight: 600,
  cursor: "pointer",
  listStyle: "none",
  selectors: {
    "&::-webkit-details-marker": { display: "none" },
    [`${menuToggle}[open] > &`]: { background: vars.color.surfaceRaised, borderColor: vars.color.accent },
  },
});

/**
 * Wide: the rest of the header row. Narrow: a panel under the header, shown while the menu
 * button's <details> is open, with everything stacked.
 */
export const menuPanel = style({
  display: "flex",
  alignItems: "center",
  gap: "20px",
  flex: "1 1 auto",
  minWidth: 0,
  "@media": {
    [narrow]: {
      display: "none",
      position: "absolute",
      top: "100%",
      left: 0,
      right: 0,
      flexDirection: "column",
      alignItems: "stretch",
      gap: "16px",
      maxHeight: "calc(100dvh - 64px)",
      overflowY: "auto",
      padding: "16px",
      background: vars.color.surface,
      borderBottom: `1px solid ${vars.color.border}`,
      boxShadow: vars.shadow.menu,
      selectors: { [`${menuToggle}[open] + &`]: { display: "flex" } },
    },
  },
});

export const nav = style({ flex: "1 1 auto", minWidth: 0, "@media": { [narrow]: { flex: "none" } } });
export const navList = style({
  display: "flex",
  alignItems: "center",
  gap: "4px",
  margin: 0,
  padding: 0,
  listStyle: "none",
  "@media": { [narrow]: { flexDirection: "column", alignItems: "stretch" } },
});
export const navItem = style({ position: "relative" });
export const navLink = style({
  display: "flex",
  alignItems: "center",
  gap: "4px",
  padding: "8px 10px",
  fontWeight: 500,
  whiteSpace: "nowrap",
  borderRadius: vars.radius.small,
  selectors: { '&[aria-current="page"]': { color: vars.color.accentStrong } },
});
export const caret = style({ fontSize: "10px", opacity: 0.7 });

/**
 * Sub-menus open on hover and on keyboard focus inside the item, with or without JavaScript,
 * and close 100 ms after the pointer leaves (spec §4/§9): the hide transition is delayed.
 */
export const subMenu = style({
  position: "absolute",
  top: "100%",
  left: 0,
  minWidth: "200px",
  margin: 0,
  padding: "6px",
  listStyle: "none",
  background: vars.color.surfaceRaised,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.medium,
  boxShadow: vars.shadow.menu,
  visibility: "hidden",
  opacity: 0,
  transition: "opacity 80ms ease 100ms, visibility 0s linear 180ms",
  selectors: {
    [`${navItem}:hover > &, ${navItem}:focus-within > &`]: {
      visibility: "visible",
      opacity: 1,
      transition: "opacity 80ms ease 0s, visibility 0s linear 0s",
    },
  },
  // In the narrow panel every sub-menu is a plain indented list.
  "@media": {
    [narrow]: {
      position: "static",
      visibility: "visible",
      opacity: 1,
      transition: "none",
      minWidth: 0,
      padding: "0 0 0 12px",
      background: "transparent",
      border: 0,
      boxShadow: "none",
    },
  },
});
export const subLink = style({
  display: "block",
  padding: "8px 10px",
  borderRadius: vars.radius.small,
  selectors: { "&:hover": { background: vars.color.surface } },
});

export const search = style({ flex: "0 1 220px", minWidth: "120px", "@media": { [narrow]: { flex: "none" } } });
export const searchInput = style({
  width: "100%",
  height: "34px",
  padding: "0 12px",
  background: vars.color.background,
  border: `1px solid ${vars.color.border}`,
  borderRadius: "17px",
  color: vars.color.text,
  "::placeholder": { color: vars.color.textMuted },
});

export const actions = style({ display: "flex", alignItems: "center", gap: "8px", flexShrink: 0, "@media": { [narrow]: { flexWrap: "wrap" } } });

const buttonBase = {
  display: "inline-flex",
  alignItems: "center",
  gap: "6px",
  height: "34px",
  padding: "0 14px",
  borderRadius: vars.radius.small,
  fontWeight: 600,
  whiteSpace: "nowrap",
} as const;
export const ghostButton = style({ ...buttonBase, background: "transparent", border: `1px solid transparent`, color: vars.color.text });
export const primaryButton = style({
  ...buttonBase,
  background: vars.color.accent,
  color: vars.color.accentText,
  border: "1px solid transparent",
  selectors: { "&:hover": { background: vars.color.accentHover, color: vars.color.accentText } },
});
export const iconButton = style({
  ...buttonBase,
  padding: "0 10px",
  background: "transparent",
  border: `1px solid ${vars.color.border}`,
  color: vars.color.text,
  listStyle: "none",
  selectors: { "&::-webkit-details-marker": { display: "none" } },
});
export const menuNote = style({
  padding: "8px 10px",
  color: vars.color.textMuted,
  fontSize: "12px",
  borderBottom: `1px solid ${vars.color.border}`,
  marginBottom: "4px",
});
export const subButton = style([
  subLink,
  { width: "100%", textAlign: "left", background: "transparent", border: 0, selectors: { "&:hover": { background: vars.color.surface } } },
]);
