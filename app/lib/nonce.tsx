import { createContext, useContext, type ReactNode } from "react";

/**
 * The Content-Security-Policy nonce of this response (server.mjs makes one per request): the
 * document's scripts carry it, so no other inline script runs. On the client it is empty (browsers
 * hide the attribute from scripts), which React tolerates when it hydrates.
 */
const NonceContext = createContext("");

export function NonceProvider({ value, children }: { value: string; children: ReactNode }) {
  return <NonceContext.Provider value={value}>{children}</NonceContext.Provider>;
}

export function useNonce(): string {
  return useContext(NonceContext);
}
