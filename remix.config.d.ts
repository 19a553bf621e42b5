// Types for remix.config.js, which tests import to read the route manifest (app/testing/route-manifest.ts).
import type { AppConfig } from "@remix-run/dev";

declare const config: AppConfig & { routes: NonNullable<AppConfig["routes"]> };
export default config;
