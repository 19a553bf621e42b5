import { flatRoutes } from "remix-flat-routes";

// BUILD_DIR (default build/) lets two builds of one checkout live side by side (parallel e2e runs).
const buildDir = process.env.BUILD_DIR || "build";

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  serverBuildPath: `${buildDir}/index.js`,
  assetsBuildDirectory: buildDir === "build" ? "public/build" : `${buildDir}/public`,
  // Classic compiler (owner's choice). Routes are hybrid flat routes (remix-flat-routes, as the Epic
  // Stack does): one `+` folder per area (`account+/center+/kyc.tsx` is /account/center/kyc,
  // `_layout.tsx` is the folder's parent route), see docs/decisions/021-route-folders.md. Tests and
  // style files living beside routes are not routes. Remix's own convention is switched off.
  ignoredRouteFiles: ["**/*"],
  routes: async (defineRoutes) => flatRoutes("routes", defineRoutes, { ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}", "**/*.css.ts", "**/__*.*"] }),
  serverModuleFormat: "esm",
  serverPlatform: "node",
  // Protocol, variants and the ESM-only packages are bundled into the server build.
  serverDependenciesToBundle: [/^remix-i18next/],
  browserNodeBuiltinsPolyfill: { modules: {} },
  watchPaths: ["./protocol", "./variants"],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
};
