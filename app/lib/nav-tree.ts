import type { NavItem } from "#protocol/config-tables";

export interface NavNode {
  id: number;
  code: string;
  path: string;
  icon: string | null;
  external: boolean;
  children: NavNode[];
}

export interface NavTree {
  /** The first four roots, shown in the header with their children (spec §9). */
  primary: NavNode[];
  /** Further roots, grouped under "More". */
  more: NavNode[];
}

export const PRIMARY_ROOTS = 4;

/**
 * Builds the header navigation from the nav table: only `nav_show = 1`, ordered by `nav_sort`,
 * children under their parent. `isServed` tells whether the web tier has a page for an internal
 * path; an item without one is left out (a root stays when one of its children is served, and
 * then points at its first served child), so configuration may list pages that are not built yet.
 */
export function buildNavTree(items: readonly NavItem[], isServed: (path: string) => boolean): NavTree {
  const visible = items.filter((item) => item.nav_show === 1).sort((a, b) => a.nav_sort - b.nav_sort || a.id - b.id);
  const toNode = (item: NavItem): NavNode => ({
    id: item.id,
    code: item.nav_code,
    path: item.nav_path,
    icon: item.nav_icon,
    external: /^https?:\/\//i.test(item.nav_path),
    children: [],
  });
  const reachable = (node: NavNode) => node.external || isServed(node.path);

  const roots: NavNode[] = [];
  for (const root of visible.filter((item) => item.pid === 0)) {
    const node = toNode(root);
    node.children = visible
      .filter((item) => item.pid === root.id)
      .map(toNode)
      .filter(reachable);
    if (reachable(node)) roots.push(node);
    else if (node.children[0]) roots.push({ ...node, path: node.children[0].path });
  }
  return { primary: roots.slice(0, PRIMARY_ROOTS), more: roots.slice(PRIMARY_ROOTS) };
}
