import type { Request, Response as ExpressResponse } from "express";
export const PREFERENCE_COOKIES: Set<string>;
export function pageCacheKey(req: {
  method: string;
  path: string;
  originalUrl: string;
  secure: boolean;
  hostname?: string;
  headers: Record<string, string | string[] | undefined>;
}): string | null;
export interface PageCacheIO {
  nonce: string;
  render: (nonce: string, options?: { shared: boolean }) => Promise<Response>;
  send: (res: ExpressResponse, response: Response) => Promise<void>;
  securityHeaders: (nonce: string) => Record<string, string>;
}
export function createPageCache(options: { ttlMs: number; maxEntries?: number; waitMs?: number; now?: () => number }): {
  serve(req: Request, res: ExpressResponse, io: PageCacheIO): Promise<void>;
  stats: { hits: number; misses: number; bypassed: number; shared: number };
  size(): number;
  clear(): void;
};
