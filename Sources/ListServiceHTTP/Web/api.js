// The service's API as the page uses it: JSON in and out, refusals as Problem (RFC 9457),
// and who the page is signed in as: a bearer token kept for this tab, sent with every request.

const tokenKey = 'listservice.token';

/** Takes a token the embedding app handed over in the address (`#token=…`, also after a
 *  screen's criteria) into this tab's storage, and removes it from the address bar. */
function adoptTokenFromAddress() {
  const match = location.hash.match(/[#&?]token=([^&]*)/);
  if (!match) return;
  if (match[1]) sessionStorage.setItem(tokenKey, decodeURIComponent(match[1]));
  const hash = location.hash.replace(/([#&?])token=[^&]*&?/, '$1').replace(/[?&]$/, '');
  history.replaceState(null, '', `${location.pathname}${location.search}${hash === '#' ? '' : hash}`);
}
adoptTokenFromAddress();

/** The bearer token the page is signed in with; null when it is not. */
export const token = () => sessionStorage.getItem(tokenKey);

/** Signs the page in with `value` (null: signs it out). */
export function setToken(value) {
  if (value) sessionStorage.setItem(tokenKey, value); else sessionStorage.removeItem(tokenKey);
}

/** The `Authorization` header of a signed-in page, as an object to spread into headers. */
export const authorization = () => (token() ? { Authorization: `Bearer ${token()}` } : {});

/** A refused request: the problem's `detail` is meant for people, `errors` names fields. */
export class Problem extends Error {
  constructor(status, body) {
    super(body?.detail || body?.title || `The service answered ${status}.`);
    this.status = status;
    this.body = body;
    this.errors = body?.errors || [];
  }
}

/** `path?query` from an object, leaving out empty values. */
export function withQuery(path, params) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') query.set(name, value);
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** A new `Idempotency-Key`: 128 random bits in hex (`crypto.randomUUID` needs a secure context). */
function newIdempotencyKey() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** How often a write is sent again when its answer was lost or the service asked to retry. */
const writeAttempts = 3;

/** Sends one request; resolves with the JSON answer (null for 204), rejects with a Problem.
 *  A write carries an `Idempotency-Key`, so when the connection drops before the answer, or
 *  the service answers 503 or "still in flight", it is sent again under the same key: the
 *  service runs it at most once and gives the retry the first answer. */
export async function send(method, path, { body, version } = {}) {
  const headers = { Accept: 'application/json', ...authorization() };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (version) headers['If-Match'] = `"${version}"`;
  const isWrite = method !== 'GET' && method !== 'HEAD';
  if (isWrite) headers['Idempotency-Key'] = newIdempotencyKey();
  const payload = body === undefined ? undefined : JSON.stringify(body);
  for (let attempt = 1; ; attempt += 1) {
    let response;
    try {
      response = await fetch(path, { method, headers, body: payload });
    } catch {
      if (isWrite && attempt < writeAttempts) { await pause(attempt); continue; }
      throw new Problem(0, { detail: 'The service cannot be reached.' });
    }
    const text = await response.text();
    let data = null;
    try { data = text ? JSON.parse(text) : null; } catch { data = null; }
    const mayRetry = response.status === 503 || data?.code === 'idempotency-key-in-flight';
    if (isWrite && mayRetry && attempt < writeAttempts) { await pause(attempt, response.headers.get('Retry-After')); continue; }
    if (!response.ok) throw new Problem(response.status, data);
    return data;
  }
}

/** Waits before a write's next attempt: what `Retry-After` says (at most 5 s), else 0.5 s, 1 s. */
function pause(attempt, retryAfter) {
  const seconds = Math.min(5, Number(retryAfter) || attempt * 0.5);
  return new Promise((resolve) => setTimeout(resolve, seconds * 1000));
}

/** The address of a live stream for this page: signed in, with a fresh one-use ticket
 *  (EventSource cannot send `Authorization`, and a token never goes in a URL); resuming,
 *  with the last event's id. */
export async function liveAddress(url, lastEventId) {
  const extra = new URLSearchParams();
  if (lastEventId) extra.set('lastEventId', lastEventId);
  if (token()) extra.set('ticket', (await send('POST', '/live/tickets')).ticket);
  const text = extra.toString();
  return text ? `${url}${url.includes('?') ? '&' : '?'}${text}` : url;
}
