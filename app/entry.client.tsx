import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { registerTexts, type Texts } from "~/lib/texts";

/**
 * The page's texts (decision 036): set by the texts script, which runs before this module. If it
 * did not arrive (a weak connection dropped it), they are fetched as JSON first: hydrating without
 * them would replace the server's words with keys. The page stays usable meanwhile.
 */
async function pageTexts(): Promise<Texts | undefined> {
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
  if (texts) registerTexts(texts);
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    );
  });
});
