/**
 * Spec §9 "Chunk load timeout": how long a page change (the next page's script and its data) may
 * take before the page says it could not be loaded (spec §8, decision 033).
 */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/**
 * Whether an error means a script chunk or a page's data did not arrive over the connection: the
 * browsers' words for a failed `import()` (Chromium, Firefox, Safari) and for a failed `fetch`.
 * Such a page is worth loading again; it is not a crash.
 */
export function isLoadFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error.name === "ChunkLoadError" ||
    /dynamically imported module|importing a module script failed|failed to fetch|networkerror when attempting to fetch|^load failed$/i.test(error.message)
  );
}

/** The address of a location, as a plain link's `href`. */
export function hrefOf(location: { pathname: string; search: string; hash: string }): string {
  return `${location.pathname}${location.search}${location.hash}`;
}
