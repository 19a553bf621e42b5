import type { ManifestRoute } from "./lib/route-patterns";

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The build's route manifest (server.mjs passes it), to tell which pages exist. */
    routeManifest?: Record<string, ManifestRoute | undefined>;
    /** This response's Content-Security-Policy nonce (server.mjs), for the document's scripts. */
    cspNonce?: string;
  }
}
export {};

declare module "@remix-run/server-runtime" {
  interface Future {
    v3_singleFetch: true;
  }
}
