import * as z from "zod";
import { LANGUAGE_CODES } from "#protocol/languages";
import { THEMES } from "#protocol/site-config";

/** Only a path of this site: starts with one slash, never `//` or `/\` (no open redirect). */
export const localPath = z
  .string()
  .max(2000)
  .regex(/^\/(?![/\\])[^\s]*$/, "must be a path of this site")
  .catch("/home/index");

/** The one schema of the preference forms of the header. */
export const preferenceSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("language"), value: z.enum(LANGUAGE_CODES), redirectTo: localPath }),
  z.object({ intent: z.literal("currency"), value: z.string().regex(/^[a-z]{3}$/), redirectTo: localPath }),
  z.object({ intent: z.literal("theme"), value: z.enum(THEMES), redirectTo: localPath }),
  /** The wallet's asset visibility (spec §3 showAllAssets). */
  z.object({ intent: z.literal("assets"), value: z.enum(["all", "hide-small"]), redirectTo: localPath }),
]);
export type PreferenceInput = z.infer<typeof preferenceSchema>;
