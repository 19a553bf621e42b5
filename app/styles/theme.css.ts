import { createTheme, createThemeContract } from "@vanilla-extract/css";

/** The theme contract: every component colours itself through these variables only. */
export const vars = createThemeContract({
  color: {
    background: null,
    surface: null,
    surfaceRaised: null,
    border: null,
    text: null,
    textMuted: null,
    accent: null,
    accentText: null,
    accentHover: null,
    /** The accent as text on the page background (readable in both themes). */
    accentStrong: null,
    up: null,
    down: null,
    focus: null,
    danger: null,
    success: null,
    overlay: null,
  },
  font: { body: null, mono: null },
  radius: { small: null, medium: null, large: null },
  shadow: { menu: null },
});

const shared = {
  font: {
    body: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK SC", "PingFang SC", "Hiragino Sans", "Malgun Gothic", sans-serif',
    mono: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  },
  radius: { small: "4px", medium: "8px", large: "16px" },
};

/** Night (spec default `theme-night`). Contrast of text on background ≥ 7:1, muted ≥ 4.5:1. */
export const nightTheme = createTheme(vars, {
  ...shared,
  color: {
    background: "#0b0e11",
    surface: "#161a1e",
    surfaceRaised: "#1e2329",
    border: "#2b3139",
    text: "#eaecef",
    textMuted: "#a3acb9",
    accent: "#f0b90b",
    accentText: "#0b0e11",
    accentHover: "#f8d12f",
    accentStrong: "#f0b90b",
    up: "#2ebd85",
    down: "#f85f73",
    focus: "#7cc4ff",
    danger: "#ff6b7d",
    success: "#2ebd85",
    overlay: "rgba(0, 0, 0, 0.6)",
  },
  shadow: { menu: "0 8px 24px rgba(0, 0, 0, 0.5)" },
});

/** Day. */
export const dayTheme = createTheme(vars, {
  ...shared,
  color: {
    background: "#ffffff",
    surface: "#f5f5f5",
    surfaceRaised: "#ffffff",
    border: "#d5d9de",
    text: "#1e2329",
    textMuted: "#5a636e",
    accent: "#f0b90b",
    accentText: "#1e2329",
    accentHover: "#d9a507",
    accentStrong: "#8a6100",
    up: "#017350",
    down: "#b81c33",
    focus: "#0b5fd6",
    danger: "#b3162c",
    success: "#017350",
    overlay: "rgba(0, 0, 0, 0.35)",
  },
  shadow: { menu: "0 8px 24px rgba(0, 0, 0, 0.14)" },
});

export const THEME_CLASSES = { "theme-night": nightTheme, "theme-day": dayTheme } as const;
