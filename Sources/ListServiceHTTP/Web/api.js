// The service's API as the page uses it: JSON in and out, refusals as Problem (RFC 9457).

/** A refused request: the problem's `detail` is meant for people, `errors` names fields. */
export class Problem extends Error {
  constructor(status, body) {
    super(body?.detail || body?.title || `The service answered ${status}.`);
    this.status = status;
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

/** Sends one request; resolves with the JSON answer (null for 204), rejects with a Problem. */
export async function send(method, path, { body, version } = {}) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (version) headers['If-Match'] = `"${version}"`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new Problem(0, { detail: 'The service cannot be reached.' });
  }
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!response.ok) throw new Problem(response.status, data);
  return data;
}
