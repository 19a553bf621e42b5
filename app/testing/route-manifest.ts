import { UNSAFE_defineRoutes as defineRoutes } from "@remix-run/dev";
import remixConfig from "../../remix.config.js";

export interface RouteFile {
  /** The route's id (`routes/account+/center+/kyc`): what a `?_data=` request names. */
  id: string;
  /** Its parent route's id (`root` for a top-level route). */
  parentId?: string;
  /** Its own path segment(s), relative to the parent's. */
  path?: string;
  /** An index route (the page of its parent's own URL). */
  index?: boolean;
  /** The route module, relative to `app/` (`routes/account+/center+/kyc.tsx`). */
  file: string;
  /** Its full URL pattern (`/account/center/kyc`, `/exchange/full-screen/:symbol`). */
  url: string;
}

interface ManifestEntry {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  file: string;
}

/**
 * The routes as the Remix compiler sees them: the `routes` function of `remix.config.js` run
 * with Remix's own `defineRoutes`, so tests that walk the routes use the build's naming rules
 * instead of copying them (decision 021). Run from the repository root.
 */
export async function routeFiles(): Promise<RouteFile[]> {
  const manifest = (await remixConfig.routes(defineRoutes)) as Record<string, ManifestEntry>;
  const fullPath = (entry: ManifestEntry): string[] => {
    const own = (entry.path ?? "").split("/").filter(Boolean);
    const parent = entry.parentId ? manifest[entry.parentId] : undefined;
    return parent ? [...fullPath(parent), ...own] : own;
  };
  return Object.values(manifest).map((entry) => {
    const { id, parentId, path, index, file } = entry;
    return { id, parentId, path, index, file, url: `/${fullPath(entry).join("/")}` };
  });
}
