type RequestLike = { method: string; headers: Record<string, string | string[] | undefined> };
export function isCrossSiteWrite(req: RequestLike): boolean;
export function unreadableFormReason(req: RequestLike): string | null;
export function isUnreadableBodyError(error: unknown): boolean;
export function guardActions<B extends { routes: Record<string, { module: Record<string, unknown> }> }>(build: B): B;
export function securityHeaders(nonce: string, secure: boolean): Record<string, string>;
