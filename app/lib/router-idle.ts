/**
 * Whether the page's router has nothing in flight right now: no navigation, revalidation or
 * fetcher. Read from the router itself, not from the last render: Remix renders router changes in
 * a transition (`v7_startTransition`), so a value kept from a render can say "idle" while a
 * fetcher's redirect is already loading the page. Starting a reload then would restart that load,
 * and the one-time toast it carried (consumed on the server) would be dropped with it.
 */
export function routerIsIdle(): boolean {
  if (typeof window === "undefined" || !window.__remixRouter) return false;
  const { navigation, revalidation, fetchers } = window.__remixRouter.state;
  if (navigation.state !== "idle" || revalidation !== "idle") return false;
  for (const fetcher of fetchers.values()) if (fetcher.state !== "idle") return false;
  return true;
}
