// Calls to the node's HTTP API with the browser's session cookie. Every error becomes an Error whose message is
// the node's own words ({"code", "message"}); a 401 sends the browser back to the sign-in page. Every read's answer
// is kept on the phone (local.js): when no node answers, a read gives the answer kept, and `offline` says since when
// the screen shows what the phone kept.

import * as local from './local.js';

/** While reads come from the phone: the time (ms since 1970) of the oldest answer shown; null while the node answers.
 * `noRoom`: the node's last answer said it has no room for another connection from this phone's address (503
 * `no_room`, all its places held by the devices behind the same router); that counts as no node answering. */
export const offline = { since: null, noRoom: false };

export class APIError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function call(method, path, body, { signIn = true } = {}) {
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
  offline.noRoom = response.status === 503 && data?.code === 'no_room';
  if (offline.noRoom) throw new APIError(0, 'no_room', data.message);
  if (response.status === 401) {
    if (signIn) window.location.assign('/');
    throw new APIError(401, 'signed_out', 'this browser is signed out');
  }
  if (!response.ok) {
    throw new APIError(response.status, data?.code ?? 'http', data?.message ?? `the node answered ${response.status}`);
  }
  return data;
}

export async function get(path) {
  try {
    const data = await call('GET', path);
    offline.since = null;
    local.keep(path, data);
    return data;
  } catch (error) {
    if (error.status !== 0) throw error;
    const kept = await local.read(path);
    if (!kept) throw new APIError(0, 'offline', 'the node cannot be reached, and this phone has not kept this screen from before');
    offline.since = offline.since === null ? kept.at : Math.min(offline.since, kept.at);
    return kept.data;
  }
}

export const post = (path, body, options) => call('POST', path, body ?? {}, options);
export const patch = (path, body) => call('PATCH', path, body ?? {});
export const enc = encodeURIComponent;
