import type { IncomingMessage, ServerResponse } from "node:http";
export function socketIoProxy(
  engine: URL,
  headers: (req: IncomingMessage) => Record<string, string>,
): (req: IncomingMessage & { originalUrl?: string }, res: ServerResponse) => void;
