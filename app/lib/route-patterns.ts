/**
 * Which URL paths the web tier serves, worked out from the Remix route manifest. Used to leave
 * out navigation and footer links whose page does not exist yet, instead of linking to the
 * catch-all redirect.
 */

export interface ManifestRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
}

/** Full path patterns of the routes that render a page (the bare `*` catch-all excluded). */
export function servedPatterns(routes: Record<string, ManifestRoute | undefined>): string[][] {
  const fullPath = (route: ManifestRoute): string[] => {
    const parent = route.parentId ? routes[route.parentId] : undefined;
    const own = (route.path ?? "").split("/").filter(Boolean);
    return parent ? [...fullPath(parent), ...own] : own;
  };
  const patterns: string[][] = [];
  for (const route of Object.values(routes)) {
    if (!route || route.id === "root") continue;
    const segments = fullPath(route);
    if (segments.length === 1 && segments[0] === "*") continue;
    if (segments.length === 0 && !route.index) continue;
    patterns.push(segments);
  }
  return patterns;
}

/** Whether a pathname matches one of the patterns (`:param` matches a segment, `*` the rest). */
export function isServedPath(patterns: readonly string[][], pathname: string): boolean {
  const segments = pathname.split("?")[0]!.split("/").filter(Boolean);
  return patterns.some((pattern) => {
    for (let i = 0; i < pattern.length; i++) {
      const part = pattern[i]!;
      if (part === "*") return true;
      const segment = segments[i];
      if (segment === undefined) return part.endsWith("?");
      if (!part.startsWith(":") && part.toLowerCase() !== segment.toLowerCase()) return false;
    }
    return segments.length === pattern.length;
  });
}
