// Live islands talk socket.io to the engine through the web origin (spec: the real-time address
// derives from the page host; decision 018): its long-polling requests are passed through here,
// the WebSocket upgrade in server.mjs.
import http from "node:http";

/**
 * The `/socket.io` pass-through to the engine. Its answers carry `headers(req)`, the security
 * headers every page carries (a header of the engine's by the same name gives way).
 * @param {URL} engine where the engine listens
 * @param {(req: import("node:http").IncomingMessage) => Record<string, string>} headers
 * @returns {(req: import("node:http").IncomingMessage & { originalUrl?: string }, res: import("node:http").ServerResponse) => void}
 */
export function socketIoProxy(engine, headers) {
  return (req, res) => {
    const upstream = http.request(
      {
        host: engine.hostname,
        port: engine.port,
        method: req.method,
        path: req.originalUrl ?? req.url,
        headers: { ...req.headers, host: engine.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, withHeaders(answer.headers, headers(req)));
        answer.pipe(res);
      },
    );
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502, headers(req)).end();
      else res.destroy();
    });
    req.pipe(upstream);
  };
}

/**
 * @param {import("node:http").IncomingHttpHeaders} answer
 * @param {Record<string, string>} ours
 */
function withHeaders(answer, ours) {
  const names = new Set(Object.keys(ours).map((name) => name.toLowerCase()));
  return { ...Object.fromEntries(Object.entries(answer).filter(([name]) => !names.has(name.toLowerCase()))), ...ours };
}
