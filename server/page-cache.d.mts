import type { Request, Response as ExpressResponse } from "express";
export const PREFERENCE_COOKIES: Set<string>;
export function pageCacheKey(req: {
  method: string;
  path: string;
  originalUrl: string;
  secure: boolean;
  headers: Record<string, string | string[] | undefined>;
}): string | null;
export interface PageCacheIO {
  nonce: string;
  render: (options?: { shared: boolean }) => Promise<Response>;
  send: (res: ExpressResponse, response: Response) => Promise<void>;
  securityHeaders: (nonce: string) => Record<string, string>;
}
export function createPageCache(options: { ttlMs: number; maxEntries?: number; waitMs?: number; now?: () => number }): {
  serve(req: Request, res: ExpressResponse, io: PageCacheIO): Promise<void>;
  size(): number;
  clear(): void;
};
