// Built assets sent as their precompressed copies (scripts/precompress.mjs; decision 037): the
// brotli copy to a client that accepts brotli, else the gzip copy to one that accepts gzip, else
// the file itself. The copies are listed once at start (the assets of a build never change).
import { readdirSync } from "node:fs";
import path from "node:path";
import express from "express";

const COPIES = [
  { encoding: "br", suffix: ".br" },
  { encoding: "gzip", suffix: ".gz" },
];

/**
 * How much a request's `Accept-Encoding` wants each encoding: its q (1 when unsaid), `*`'s for
 * one it does not name, 0 for one it refuses or does not name at all.
 */
export function encodingWeights(header) {
  const q = new Map();
  for (const part of String(header ?? "").split(",")) {
    const [name, ...params] = part.trim().split(";");
    if (!name) continue;
    const weight = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith("q="));
    const value = weight ? Number(weight.slice(2)) : 1;
    q.set(name.trim().toLowerCase(), Number.isFinite(value) ? value : 0);
  }
  return (encoding) => q.get(encoding) ?? q.get("*") ?? 0;
}

/** The copy to send: the one the client wants most (brotli on a tie), or none it accepts. */
export function chooseCopy(has, header) {
  const weight = encodingWeights(header);
  let best = null;
  for (const copy of COPIES) {
    if (!has.includes(copy.encoding) || weight(copy.encoding) <= 0) continue;
    if (!best || weight(copy.encoding) > weight(best.encoding)) best = copy;
  }
  return best;
}

/** URL path (under the mount) → the encodings it has a copy in, read from the assets folder. */
export function listCopies(dir) {
  const copies = new Map();
  const walk = (folder, prefix) => {
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.isDirectory()) walk(path.join(folder, entry.name), `${prefix}${entry.name}/`);
      for (const { encoding, suffix } of COPIES) {
        if (!entry.isFile() || !entry.name.endsWith(suffix)) continue;
        const original = `${prefix}${entry.name.slice(0, -suffix.length)}`;
        copies.set(original, [...(copies.get(original) ?? []), encoding]);
      }
    }
  };
  walk(dir, "/");
  return copies;
}

/**
 * Express middleware for the assets' mount, in front of `express.static` of the same folder: a
 * file with a copy the client accepts is sent as that copy (with the original's type; the
 * `compression` middleware leaves an encoded response as it is); anything else, and a copy that
 * is gone from the folder, goes on as it came.
 */
export function precompressed(dir, staticOptions = {}) {
  const copies = listCopies(dir);
  const serve = express.static(dir, staticOptions);
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const has = copies.get(req.path);
    if (!has) return next();
    res.vary("Accept-Encoding");
    const copy = chooseCopy(has, req.headers["accept-encoding"]);
    if (!copy) return next();
    const url = req.url;
    res.type(path.extname(req.path));
    res.set("Content-Encoding", copy.encoding);
    req.url = `${req.path}${copy.suffix}${url.slice(req.path.length)}`;
    serve(req, res, (error) => {
      res.removeHeader("Content-Encoding");
      res.removeHeader("Content-Type");
      req.url = url;
      next(error);
    });
  };
}
