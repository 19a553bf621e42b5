// What the web tier logs for a request that ended in an error. A fuzzer's 20,000 malformed requests
// left 7 MB of stack traces: a client's malformed request (a path that cannot be decoded, no such
// route or action, a bad `?_data=`, an unreadable body) is one line; only a server fault keeps
// its stack.

const MAX_PART = 200;

/**
 * The status an error stands for: its own `status` or `statusCode` (Express's and http-errors'
 * 4xx), else 500.
 * @param {unknown} error
 * @returns {number}
 */
export function errorStatus(error) {
  const { status, statusCode } = /** @type {{ status?: unknown; statusCode?: unknown }} */ (error ?? {});
  const code = typeof status === "number" ? status : statusCode;
  return typeof code === "number" && code >= 400 && code <= 599 ? code : 500;
}

/**
 * Whether a request's error is the client's doing: a 4xx answer, or a URL that could not be decoded
 * wherever that was found out.
 * @param {number} status
 * @param {unknown} error
 * @returns {boolean}
 */
export function isClientFault(status, error) {
  return status < 500 || error instanceof URIError;
}

/**
 * The log text of a request that ended in an error: one line `METHOD /path STATUS message` (the
 * query left out, each part cut to 200 characters, control characters masked), followed by the
 * stack only for a server fault. An error answer that is no `Error` (a 503 the app chose) has no
 * stack to give.
 * @param {{ method: string; url: string }} req url: the request target or an absolute URL
 * @param {number} status
 * @param {unknown} error an `Error`, or an error answer (`{ status, statusText, data }`)
 * @returns {string}
 */
export function requestErrorLog(req, status, error) {
  const line = [req.method, pathOf(req.url), status, messageOf(error)]
    .map((part) => oneLine(String(part)))
    .join(" ")
    .trimEnd();
  if (isClientFault(status, error) || !(error instanceof Error) || !error.stack) return line;
  return `${line}\n${error.stack}`;
}

/** @param {string} url */
function pathOf(url) {
  try {
    return new URL(url).pathname;
  } catch {
    return url.split("?")[0] ?? ""; // a request target: "/path?query"
  }
}

/** @param {unknown} error */
function messageOf(error) {
  if (error instanceof Error) return error.message;
  const answer = /** @type {{ data?: unknown; statusText?: unknown }} */ (error ?? {});
  if (typeof answer.data === "string") return answer.data;
  if (typeof answer.statusText === "string") return answer.statusText;
  return String(error);
}

/** @param {string} text */
function oneLine(text) {
  // eslint-disable-next-line no-control-regex -- control characters are what is masked
  return (text.split(/\r?\n/, 1)[0] ?? "").replace(/[\u0000-\u001f\u007f]/g, "?").slice(0, MAX_PART);
}
