/**
 * The small modules every page loads with the shell (the root uses each of them), imported here
 * only so that the browser build puts them in the shell's chunk (decision 037, §6).
 *
 * esbuild makes one chunk per distinct set of pages sharing a module, and a module the root shares
 * with a few routes (the search page, the rate page…) got a chunk of its own: a file under half a
 * KB, most of it its name, its imports and gzip's header, on every page. Imported from
 * `use-shell.ts` (which every page with a component imports), each of these is shared by the same
 * set of pages as the shell's own modules, and goes in their chunk. Nothing here is used: the
 * modules are imported for where they are bundled, not for what they export.
 */
import "./use-hydrated";
import "./trading-path";
import "./search";
import "./notice-links";
import "./clsx";
import "~/styles/theme.css";
import "~/components/error-page";
import "~/components/header/preference-form";
import "~/components/header/header-search.css";
// In the browser this is the compiler's empty stand-in for the server's Remix package, which most
// routes import for their loaders and actions (the import stays in the browser build): here it
// joins the shell's chunk instead of being a file of its own. (The `.server` modules' stand-ins
// would go the same way, 0.3 KB a page, but app/lib does not import server modules: lint rule.)
import "@remix-run/node";
