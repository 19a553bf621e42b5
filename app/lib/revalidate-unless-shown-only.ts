/**
 * A trading page's `shouldRevalidate`: a change of the address that only changes how the page
 * shows what it has (an order type tab, the book's grouping: the `shownOnly` parameters) does not
 * reload the market. A redirect back to the same address after a post reloads, as does anything else.
 */
export function revalidateUnlessShownOnly(shownOnly: readonly string[]) {
  return ({
    currentUrl,
    nextUrl,
    formMethod,
    defaultShouldRevalidate,
  }: {
    currentUrl: URL;
    nextUrl: URL;
    formMethod?: string;
    defaultShouldRevalidate: boolean;
  }): boolean => {
    if (!formMethod && currentUrl.pathname === nextUrl.pathname && currentUrl.search !== nextUrl.search) {
      const a = new URLSearchParams(currentUrl.search);
      const b = new URLSearchParams(nextUrl.search);
      for (const name of shownOnly) {
        a.delete(name);
        b.delete(name);
      }
      if (a.toString() === b.toString()) return false;
    }
    return defaultShouldRevalidate;
  };
}
