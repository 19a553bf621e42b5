import { useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";

/**
 * The narrow-screen site menu: a summary-only <details> (the button) whose open state shows the
 * panel beside it through CSS, so it works without JavaScript. With JavaScript it also closes on
 * Escape (focus back on the button), on a click outside the button and the panel, and when the
 * page changes.
 */
export function useSiteMenu() {
  const toggleRef = useRef<HTMLDetailsElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const location = useLocation();

  // Close when the page changes, not on the first render: a member who opened the menu before the
  // page hydrated keeps it open.
  const shownPage = useRef(location.pathname + location.search);
  useEffect(() => {
    const page = location.pathname + location.search;
    if (page === shownPage.current) return;
    shownPage.current = page;
    if (toggleRef.current) toggleRef.current.open = false;
  }, [location.pathname, location.search]);

  useEffect(() => {
    const toggle = toggleRef.current;
    const panel = panelRef.current;
    if (!toggle || !panel) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || !toggle.open) return;
      // An open menu inside the panel (language, currency) closes first.
      if (event.defaultPrevented || panel.querySelector("details[open]")) return;
      toggle.open = false;
      toggle.querySelector("summary")?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (toggle.open && !toggle.contains(target) && !panel.contains(target)) toggle.open = false;
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
    };
  }, []);

  return { toggleRef, panelRef };
}
