/**
 * Re-exported, never used, by the modules a page loads lazily with React but without Remix (the
 * notification follower, the interactive chart), so that they reach the same modules as the pages
 * do (decision 037, §7).
 *
 * esbuild puts a module in one chunk per distinct set of entry points reaching it, and each lazily
 * imported module is an entry point: those two reached React without ReactDOM and Remix, so React
 * was a chunk of its own (2.9 KB, a file on every page) beside the chunk of ReactDOM and Remix.
 * Reaching Remix through this re-export, they share that one chunk; it costs them nothing, as
 * they load only on pages that have it already. An export of an entry point is kept by the
 * bundler, where a bare import of a package free of side effects would be dropped.
 */
export { Link as remixRuntime } from "@remix-run/react";
