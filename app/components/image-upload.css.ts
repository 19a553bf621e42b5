import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

/**
 * The image upload box (`image-upload.tsx`). The real file input lies over the whole box,
 * transparent: a click, a tap, a keyboard press or a dropped file reach it with or without
 * JavaScript. The face beneath it shows its state (hover, focus, invalid, chosen) through the
 * input's own pseudo-classes.
 */
export const zone = style({ position: "relative", minWidth: 0 });

export const input = style({
  position: "absolute",
  inset: 0,
  width: "100%",
  height: "100%",
  margin: 0,
  padding: 0,
  opacity: 0,
  cursor: "pointer",
  // The face draws the focus ring; the input's own would be transparent anyway.
  selectors: { "&::-webkit-file-upload-button": { cursor: "pointer" }, "&::file-selector-button": { cursor: "pointer" } },
});

const faceBase = {
  display: "flex",
  alignItems: "center",
  minWidth: 0,
  background: vars.color.background,
  border: `1px dashed ${vars.color.border}`,
  borderRadius: vars.radius.medium,
  color: vars.color.text,
  transition: "border-color 120ms ease, background-color 120ms ease",
} as const;

const faceStates = {
  [`${input}:hover + &`]: { borderColor: vars.color.accent },
  [`${zone}[data-dragging] > &`]: { borderColor: vars.color.accent, borderStyle: "solid", background: vars.color.surfaceRaised },
  [`${input}[aria-invalid="true"] + &`]: { borderColor: vars.color.danger, borderStyle: "solid" },
  [`${input}:focus-visible + &`]: { outline: `2px solid ${vars.color.focus}`, outlineOffset: "2px" },
};

/** Nothing chosen (or chosen without JavaScript): an icon, what to do, the accepted files. */
export const empty = style({
  ...faceBase,
  flexDirection: "column",
  justifyContent: "center",
  gap: "4px",
  minHeight: "112px",
  padding: "16px",
  textAlign: "center",
  selectors: {
    // Chosen, not yet read (or never: without JavaScript).
    [`${input}[required]:valid + &`]: { borderStyle: "solid", borderColor: vars.color.success },
    ...faceStates,
  },
});

export const icon = style({ width: "28px", height: "28px", color: vars.color.textMuted, flexShrink: 0 });

export const prompt = style({
  fontWeight: 600,
  selectors: { [`${input}[required]:valid + ${empty} &`]: { display: "none" } },
});

/** Nothing to drag a file from on a touch screen: the prompt only asks to choose one there. */
export const withPointer = style({ "@media": { "(pointer: coarse)": { display: "none" } } });
export const withTouch = style({ display: "none", "@media": { "(pointer: coarse)": { display: "inline" } } });

/**
 * Without JavaScript the page cannot read the file, but the browser knows one is chosen: a
 * required file input is `:valid` once it holds a file.
 */
export const chosenNoScript = style({
  display: "none",
  fontWeight: 600,
  color: vars.color.success,
  selectors: { [`${input}[required]:valid + ${empty} &`]: { display: "block" } },
});

export const hint = style({ fontSize: "12px", color: vars.color.textMuted, overflowWrap: "anywhere" });

/** A file chosen and read: its thumbnail, name and size, and the way to change it. */
export const chosen = style({
  ...faceBase,
  gap: "12px",
  minHeight: "88px",
  padding: "12px",
  borderStyle: "solid",
  selectors: faceStates,
});

export const thumb = style({
  width: "64px",
  height: "64px",
  flexShrink: 0,
  objectFit: "cover",
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.small,
});

export const details = style({ display: "grid", gap: "2px", minWidth: 0, flex: "1 1 auto" });

export const name = style({ fontWeight: 600, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" });

export const size = style({ fontSize: "12px", color: vars.color.textMuted });

/** Looks like a button; the input over the box is the control it stands for. */
export const change = style({
  display: "inline-flex",
  alignItems: "center",
  flexShrink: 0,
  minHeight: "32px",
  padding: "0 12px",
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.small,
  fontWeight: 600,
  whiteSpace: "nowrap",
  selectors: { [`${input}:hover + ${chosen} &`]: { borderColor: vars.color.accent } },
});
