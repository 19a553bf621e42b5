import { vars } from "~/styles/theme.css";

/** The edge shadows' colour: dark on the day theme, light on the night one. */
const shade = `color-mix(in srgb, ${vars.color.textMuted} 45%, transparent)`;

/**
 * The scroll cue of a frame that scrolls sideways (a table wider than its place): a shadow on an
 * edge past which the content goes on. The shadows stay on the frame's edges; covers in the
 * frame's background scroll with the content and hide them at its ends. CSS only: it works
 * without JavaScript. The content's cells must not paint a background of their own.
 */
export function scrollCue(background: string) {
  return {
    backgroundColor: background,
    backgroundImage: [
      `linear-gradient(to right, ${background} 30%, transparent)`,
      `linear-gradient(to left, ${background} 30%, transparent)`,
      `radial-gradient(farthest-side at 0 50%, ${shade}, transparent)`,
      `radial-gradient(farthest-side at 100% 50%, ${shade}, transparent)`,
    ].join(", "),
    backgroundPosition: "left center, right center, left center, right center",
    backgroundRepeat: "no-repeat",
    backgroundSize: "40px 100%, 40px 100%, 14px 100%, 14px 100%",
    backgroundAttachment: "local, local, scroll, scroll",
  } as const;
}
