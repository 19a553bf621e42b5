/**
 * The modules a money form's page loads anyway, imported (never used) by the zod schema modules
 * that such a page fetches on the form's first use (the transfer, the withdrawal, the order, the
 * address book), so that the browser build bundles them as `shell-bundle.ts` does (decision 037,
 * §7). Nothing here is used: the modules are imported for where they are bundled.
 *
 * Each lazily imported schema module is an entry point of its own for esbuild, which puts a module
 * in one chunk per set of entry points reaching it. Those schemas read typed decimals and write
 * form errors with the pages' own modules, so the decimal reading, the decimal arithmetic and the
 * number display were three files on every page that shows numbers, and the form errors a file
 * beside the form hook on every page with a form. Reaching what their pages reach, the schemas
 * change no module's set, and each of those groups is one chunk. The shell (`use-shell`) is here
 * because the number display reads the language from the translator in the shell's chunk:
 * reaching part of that chunk would split it.
 *
 * Nothing more is fetched on load; on the form's first use, nothing where the page has these
 * already (transfer, withdrawal, trading), and the number display's chunk (1.8 KB) on the address
 * book.
 */
import "~/lib/use-number-format";
import "~/lib/use-shell";
import "~/components/forms";
import "./form-check";
import "./form-error";
import "./form-props";
import "./use-exchange-form";
