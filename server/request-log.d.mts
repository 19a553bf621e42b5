export function errorStatus(error: unknown): number;
export function isClientFault(status: number, error: unknown): boolean;
export function requestErrorLog(req: { method: string; url: string }, status: number, error: unknown): string;
