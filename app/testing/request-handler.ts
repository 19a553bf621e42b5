import path from "node:path";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { isRouteErrorResponse } from "@remix-run/react";
import remixConfig from "../../remix.config.js";
import { routeFiles } from "./route-manifest";

const APP = path.resolve(__dirname, "..");

/** Answers a whole HTTP request as the web server's Remix handler would. */
export type RequestHandler = (request: Request) => Promise<Response>;

/**
 * Logs the server errors Remix reports, to see why a request failed; a test's refused requests (a
 * 4xx, like a data request for a route without a loader) and Remix's warning on every `?_data=`
 * request (single fetch is on) would only bury them.
 */
function logError(error: unknown) {
  if (isRouteErrorResponse(error) && error.status < 500) return;
  if (error instanceof Error && error.message.includes("should not be making ?_data requests")) return;
  console.error(error);
}

/**
 * The web tier's request handler for route tests: Remix's own `createRequestHandler` over a server
 * build put together from the source (the root, the routes of `routeFiles`, the server entry), so
 * a test goes through Remix's routing and data-request handling, which calling one loader
 * (`Browser`) skips, and needs no `npm run build`. Each request gets the load context `server.mjs`
 * gives it. For data requests (`?_data=`, `.data`): there is no browser build, so no asset
 * manifest for a document to render with.
 *
 *     const handle = await sourceRequestHandler();
 *     const answer = await handle(new Request("http://localhost/account/wallet?_data=routes/account+/wallet+/_layout"));
 */
export async function sourceRequestHandler(): Promise<RequestHandler> {
  // A module's own loader types are narrower than the build's `unknown` data: cast, as the
  // compiler's untyped output is.
  type RouteModule = ServerBuild["routes"][string]["module"];
  const routes: ServerBuild["routes"] = {
    root: { id: "root", path: "", module: (await import("../root")) as unknown as RouteModule },
  };
  for (const route of await routeFiles()) {
    const module = (await import(/* @vite-ignore */ path.join(APP, route.file))) as RouteModule;
    routes[route.id] = { id: route.id, parentId: route.parentId, path: route.path, index: route.index, module };
  }
  const build: ServerBuild = {
    mode: "production",
    entry: { module: { ...(await import("../entry.server")), handleError: logError } },
    routes,
    assets: { entry: { module: "/build/entry.client.js", imports: [] }, routes: {}, url: "/build/manifest.js", version: "test" },
    publicPath: "/build/",
    assetsBuildDirectory: "public/build",
    future: remixConfig.future as ServerBuild["future"],
    isSpaMode: false,
  };
  const handle = createRequestHandler(build, build.mode);
  return (request) => handle(request, { routeManifest: build.routes, cspNonce: "route-test" });
}
