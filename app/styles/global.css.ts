import { globalStyle } from "@vanilla-extract/css";
import { vars } from "./theme.css";

globalStyle("*, *::before, *::after", { boxSizing: "border-box" });
globalStyle("html", { colorScheme: "dark light", WebkitTextSizeAdjust: "100%" });
globalStyle("html[data-page-change]", { cursor: "progress" });
globalStyle("body", {
  margin: 0,
  minHeight: "100vh",
  display: "flex",
  flexDirection: "column",
  background: vars.color.background,
  color: vars.color.text,
  fontFamily: vars.font.body,
  fontSize: "14px",
  lineHeight: 1.5,
});
globalStyle("a", { color: "inherit", textDecoration: "none" });
globalStyle("a:hover", { color: vars.color.accentStrong });
globalStyle("button, input, select, textarea", { font: "inherit", color: "inherit" });
globalStyle("button", { cursor: "pointer" });
// A visible focus ring for keyboard users on every control, in both themes.
globalStyle(":focus-visible", {
  outline: `2px solid ${vars.color.focus}`,
  outlineOffset: "2px",
  borderRadius: vars.radius.small,
});
globalStyle("h1, h2, h3", { lineHeight: 1.25, margin: 0 });
globalStyle("table", { borderCollapse: "collapse", width: "100%" });
globalStyle(".visually-hidden", {
  position: "absolute",
  width: "1px",
  height: "1px",
  padding: 0,
  margin: "-1px",
  overflow: "hidden",
  clip: "rect(0, 0, 0, 0)",
  whiteSpace: "nowrap",
  border: 0,
});
