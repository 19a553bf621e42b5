import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import type { Texts } from "~/lib/texts";
// Bundling only: the shell's modules in the chunk of React and Remix (see runtime-bundle.ts).
import "~/lib/use-shell";

/**
 * Resolves once the page's deferred scripts (the texts script among them) have run: they run
 * before `DOMContentLoaded`. Remix's module script is `async`, so this module can run before them;
 * fetching the JSON then would fetch the texts twice (decision 036).
 */
function deferredScriptsRan(): Promise<void> {
  if (document.readyState === "complete") return Promise.resolve();
  return new Promise((resolve) => {
    document.addEventListener("DOMContentLoaded", () => resolve(), { once: true });
    // Already past `DOMContentLoaded` (only when the texts script failed): the page's `load`.
    window.addEventListener("load", () => resolve(), { once: true });
  });
}

/**
 * The page's texts (decision 036): set by the texts script, which has run by `DOMContentLoaded`. If it
 * did not arrive (a weak connection dropped it), they are fetched as JSON first: hydrating without
 * them would replace the server's words with keys. The page stays usable meanwhile.
 */
async function pageTexts(): Promise<Texts | undefined> {
  if (!window.__texts) await deferredScriptsRan();
  if (window.__texts) return window.__texts;
  const json = document.querySelector<HTMLScriptElement>("script[data-texts]")?.dataset.texts;
  if (!json) return undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const answer = await fetch(json);
      if (answer.ok) return (await answer.json()) as Texts;
    } catch {
      // Retried below.
    }
    await new Promise((resolve) => setTimeout(resolve, 1000 * (attempt + 1)));
  }
  return undefined;
}

void pageTexts().then((texts) => {
  // Where the texts script puts them, and `textsOf` reads them (this module does not import the
  // registry: it would be one more chunk on every page, decision 037).
  if (texts) window.__texts = texts;
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    );
  });
});
