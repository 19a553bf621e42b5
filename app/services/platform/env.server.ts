import { isIP } from "node:net";
import * as z from "zod";
import { DEFAULT_API_HEAD } from "#protocol/endpoints";
import { loadVariant } from "../../../variants/index";

const DEV_SECRET = "dev-only-session-secret-change-me";

/** One entry of TRUST_PROXY, as Express reads it: an address, a subnet, or one of its named ranges. */
function isProxyEntry(entry: string): boolean {
  if (["loopback", "linklocal", "uniquelocal"].includes(entry)) return true;
  const [address = "", bits, ...rest] = entry.split("/");
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (bits === undefined) return true;
  // A prefix length, or (IPv4) a netmask: 10.0.0.0/8, 10.0.0.0/255.0.0.0.
  return /^\d+$/.test(bits) ? Number(bits) <= (family === 4 ? 32 : 128) : family === 4 && isIP(bits) === 4;
}

/** Web-tier environment, validated once; a bad value stops the server and names the variable. */
const webEnvSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    ENGINE_URL: z.url().default("http://127.0.0.1:8080"),
    API_HEAD: z
      .string()
      .regex(/^[a-z0-9-]{1,40}$/)
      .default(DEFAULT_API_HEAD),
    /** Comma-separated; the first signs new cookies, the others still verify (rotation). */
    SESSION_SECRET: z.string().min(16).default(DEV_SECRET),
    DEPLOYMENT_VARIANT: z.string().default("default"),
    /** The OAuth client the web tier identifies as (spec §7 basic client credential). */
    CLIENT_ID: z.string().min(1).default("mjkj_web"),
    CLIENT_SECRET: z.string().min(1).default("mjkj_web_secret"),
    TENANT_ID: z.string().min(1).default("000000"),
    /**
     * The proxies in front of the web tier (comma-separated addresses or subnets; server.mjs hands
     * them to Express). Unset or empty: none, and no forwarded header is believed.
     */
    TRUST_PROXY: z
      .string()
      .refine((value) => !value || value.split(",").every((entry) => isProxyEntry(entry.trim())), "addresses or subnets, comma-separated")
      .optional(),
  })
  .refine((env) => env.NODE_ENV !== "production" || process.env.ALLOW_DEV_SECRET === "1" || env.SESSION_SECRET !== DEV_SECRET, {
    message: "SESSION_SECRET must be set in production",
    path: ["SESSION_SECRET"],
  });

export type WebEnv = z.infer<typeof webEnvSchema>;

let cached: WebEnv | undefined;

/** The web tier's environment read from `source`; a bad value throws, naming the variable. */
export function readWebEnv(source: Record<string, string | undefined>): WebEnv {
  const parsed = webEnvSchema.safeParse(source);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid web environment: ${detail}`);
  }
  return parsed.data;
}

export function webEnv(): WebEnv {
  cached ??= readWebEnv(process.env);
  return cached;
}

export function sessionSecrets(): string[] {
  return webEnv()
    .SESSION_SECRET.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The deployment variant: defaults used when the engine's site configuration cannot be read. */
export function deploymentVariant() {
  return loadVariant(webEnv().DEPLOYMENT_VARIANT);
}
