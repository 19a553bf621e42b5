import type { StdioOptions } from "node:child_process";
export function supervise(options: {
  name: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  backoff?: { firstMs: number; maxMs: number; healthyMs: number };
  fatalCodes?: number[];
  onGiveUp?: (code: number | null) => void;
  stdio?: StdioOptions;
}): { readonly restarts: number; readonly pid: number | null; stop(): Promise<void> };
