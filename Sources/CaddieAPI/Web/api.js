// Calls to the node's HTTP API with the browser's session cookie. Every error becomes an Error whose message is
// the node's own words ({"code", "message"}); a 401 sends the browser back to the sign-in page.

export class APIError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function call(method, path, body) {
  const options = { method, headers: { Accept: 'application/json' }, credentials: 'same-origin' };
  if (body !== undefined) {
    options.headers['Content-Type'] = 'application/json';
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    throw new APIError(0, 'offline', 'the node cannot be reached: is `caddie serve` still running?');
  }
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (response.status === 401) {
    window.location.assign('/');
    throw new APIError(401, 'signed_out', 'this browser is signed out');
  }
  if (!response.ok) {
    throw new APIError(response.status, data?.code ?? 'http', data?.message ?? `the node answered ${response.status}`);
  }
  return data;
}

export const get = (path) => call('GET', path);
export const post = (path, body) => call('POST', path, body ?? {});
export const enc = encodeURIComponent;
