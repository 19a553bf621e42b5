/**
 * What every page loads before anything of its own: React, ReactDOM and Remix's runtime, and the
 * shell's modules that routes share with the root (`use-shell` and what it bundles). Imported,
 * never used, by the entry points that would otherwise reach only part of it, so that the browser
 * build puts all of it in one chunk (decision 037, §7).
 *
 * esbuild puts a module in one chunk per distinct set of entry points reaching it, and each route
 * and each lazily imported module is an entry point. The notification follower and the
 * interactive chart (loaded lazily) reached React without ReactDOM and Remix, so React was a
 * chunk of its own; they, Remix's browser entry and the layout of /user/ reached ReactDOM and
 * Remix without the shell, so the shell's modules were another. Reaching all of it, these four
 * share the one chunk with every page; it costs them nothing, as each loads only on a page that
 * has that chunk already. The follower and the chart re-export `remixRuntime` (an entry point's
 * export is kept, where a bare import of a package free of side effects would be dropped); the
 * two others import `use-shell` itself (importing this module, they made its re-export a file of
 * its own on every page).
 */
import "./use-shell";

export { Link as remixRuntime } from "@remix-run/react";
