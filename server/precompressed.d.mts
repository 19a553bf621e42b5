import type { RequestHandler } from "express";
export function encodingWeights(header: string | undefined): (encoding: string) => number;
export function chooseCopy(has: string[], header: string | undefined): { encoding: string; suffix: string } | null;
export function listCopies(dir: string): Map<string, string[]>;
export function precompressed(dir: string, staticOptions?: import("serve-static").ServeStaticOptions): RequestHandler;
