import { useRouteLoaderData } from "@remix-run/react";
import { isServedPath } from "./route-patterns";
import type { ShellData } from "./shell";
import { lookup } from "./i18n";
import { textsOf } from "./texts";
// Bundles the shell's small modules with this one (decision 037, §6).
import "./shell-bundle";

/** The root loader's shell data; every page renders inside the shell, so it is always there. */
export function useShell(): ShellData {
  const shell = useRouteLoaderData("root") as ShellData | undefined;
  if (!shell) throw new Error("useShell used outside the app shell");
  return shell;
}

let lastShell: ShellData | undefined;

/**
 * The root loader's data for the document and the root error page. In the browser, when the root
 * loader has failed on a page change (a page's data that did not arrive fails the root's share of
 * it too, decision 033), the shell last shown: the error page keeps the member's language and
 * theme. On the server (and so while hydrating) only this request's data.
 */
export function useDocumentShell(): ShellData | undefined {
  const shell = useRouteLoaderData("root") as ShellData | undefined;
  if (typeof document === "undefined") return shell;
  if (shell) lastShell = shell;
  return shell ?? lastShell;
}

/** Reads a dotted key from the page language's texts, for `meta` functions (which cannot use hooks). */
export function messageAt(shell: ShellData | undefined, key: string): string | undefined {
  const messages = shell ? textsOf(shell.lang)?.messages : undefined;
  return messages ? lookup(messages, key) : undefined;
}

/** A page title: "<page> | <site name>"; the page is a text key, or the text itself with `literal`. */
export function pageTitle(matches: ReadonlyArray<{ id: string; data: unknown }>, key: string, options: { literal?: boolean } = {}): string {
  const shell = matches.find((m) => m.id === "root")?.data as ShellData | undefined;
  const site = shell?.site.name ?? "Meridian Exchange";
  const page = options.literal ? key : messageAt(shell, key);
  return page ? `${page} | ${site}` : site;
}

/** Whether this build serves a path (links to pages not built yet are left out). */
export function useIsServed(): (path: string) => boolean {
  const { servedPatterns } = useShell();
  return (path: string) => isServedPath(servedPatterns, path);
}
