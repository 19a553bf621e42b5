import { useRevalidator } from "@remix-run/react";
import { useCallback, useEffect, useRef } from "react";
import { routerIsIdle } from "./router-idle";

/**
 * A reload of the page's data for pushes that say "something of yours changed" (the member's
 * `refresh` topic) or "you may have missed pushes" (a resync). A post of the page (an order, a
 * cancel) reloads the page data when it ends; a push of its own effect must not reload meanwhile:
 * a reload started while the post's load runs restarts that load, and the one-time toast
 * ("Order cancelled.") it carried would be dropped with it. So a push waits until the router is
 * idle (its live state: `routerIsIdle`), then reloads; several pushes in a burst reload once.
 */
export function usePushReload(): () => void {
  const { revalidate } = useRevalidator();
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const reload = useCallback(() => {
    if (pending.current) return;
    const attempt = () => {
      pending.current = setTimeout(() => {
        if (!routerIsIdle()) return attempt();
        pending.current = null;
        revalidate();
      }, 300);
    };
    attempt();
  }, [revalidate]);
  useEffect(() => () => void (pending.current && clearTimeout(pending.current)), []);
  return reload;
}
