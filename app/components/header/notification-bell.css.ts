import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";
import { menuToggle, NARROW_HEADER } from "./header.css";

export const bell = style({ position: "relative" });
/** In the header row: hidden on narrow screens, where the row is folded into the menu panel. */
export const inRow = style({ "@media": { [NARROW_HEADER]: { display: "none" } } });
/**
 * Beside the menu button, only on narrow screens: the count stays in sight while the menu is
 * folded. It takes the button's push to the right; the button follows it closely.
 */
export const besideMenu = style({
  display: "none",
  "@media": { [NARROW_HEADER]: { display: "inline-flex", height: "40px", marginLeft: "auto" } },
});
globalStyle(`${besideMenu} + ${menuToggle}`, { marginLeft: "-8px" });
export const badge = style({
  position: "absolute",
  top: "-6px",
  right: "-6px",
  minWidth: "18px",
  height: "18px",
  padding: "0 5px",
  borderRadius: "9px",
  background: vars.color.danger,
  color: "#fff",
  fontSize: "11px",
  fontWeight: 700,
  lineHeight: "18px",
  textAlign: "center",
});
