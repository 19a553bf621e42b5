import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

export const bell = style({ position: "relative" });
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
