// A live list: one EventSource on a list's /live twin, its events applied to a container's
// children op by op, so rows that did not change keep their DOM nodes.
import { authorization, liveAddress, token } from './api.js';

const jitter = (ms) => ms * (0.5 + Math.random());

export class LiveList {
  /**
   * @param container the element whose children are the rows, in the window's order
   * @param options.render (row) => Element for one row (called again when a row changes)
   * @param options.onBody (body, kind) => void for each snapshot, reset and delta
   * @param options.onState (state) => void: connecting, live, reconnecting, refused
   */
  constructor(container, { render, onBody = () => {}, onState = () => {} }) {
    Object.assign(this, { container, render, onBody, onState });
    this.nodes = new Map(); // id → element
    this.contents = new Map(); // id → the row's JSON, to see what changed
    this.source = null;
    this.retries = 0;
  }

  /** Watches `url` (a /live address), replacing any stream open before. */
  open(url) {
    this.url = url;
    this.retries = 0;
    this.v = null;
    this.lastEventId = null;
    this.connect();
  }

  close() {
    this.source?.close();
    this.source = null;
    this.opening = null;
    clearTimeout(this.retryTimer);
  }

  /** Opens the stream; signed in, with a new ticket each time, resuming after the last event. */
  async connect() {
    this.close();
    const opening = {};
    this.opening = opening;
    this.onState('connecting');
    let address;
    try {
      address = await liveAddress(this.url, this.lastEventId);
    } catch (problem) {
      if (this.opening !== opening) return;
      if (problem.status >= 400 && problem.status < 500) this.onState('refused', problem.message);
      else this.retry(opening);
      return;
    }
    if (this.opening !== opening) return;
    const source = new EventSource(address);
    this.source = source;
    const mine = (handler) => (event) => {
      if (this.source !== source) return;
      if (event.lastEventId) this.lastEventId = event.lastEventId;
      handler(event);
    };
    source.addEventListener('open', mine(() => { this.retries = 0; this.onState('live'); }));
    source.addEventListener('snapshot', mine((event) => this.replace(JSON.parse(event.data), 'snapshot')));
    source.addEventListener('reset', mine((event) => this.replace(JSON.parse(event.data), 'reset')));
    source.addEventListener('delta', mine((event) => this.patch(JSON.parse(event.data))));
    source.addEventListener('error', mine(() => {
      // EventSource retries a dropped stream by itself, with Last-Event-ID; a refusal (a
      // non-200 such as 503) closes it for good, so the page retries with jitter. A ticket is
      // good once: a signed-in page reopens the stream itself, with a new one.
      if (source.readyState === EventSource.CLOSED || token()) {
        source.close();
        this.refused(source, opening);
      } else {
        this.onState('reconnecting');
      }
    }));
  }

  /** Learns why the stream was refused: a 4xx is shown for good, anything else retried. */
  async refused(source, opening) {
    let status = 0, body = null, retryAfter = 0;
    const abort = new AbortController();
    try {
      const response = await fetch(this.url, { signal: abort.signal, headers: authorization() });
      status = response.status;
      retryAfter = Number(response.headers.get('Retry-After')) || 0;
      if (!response.ok) body = await response.json().catch(() => null);
    } catch { /* the service cannot be reached: retried below */ }
    abort.abort();
    if (this.source !== source) return;
    if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
      this.onState('refused', body?.detail || `The service answered ${status}.`);
      return;
    }
    this.retry(opening, retryAfter);
  }

  /** Opens the stream again later: never before the server's Retry-After, and spread out
   *  after it, so that the clients it turned away do not all come back at the same moment. */
  retry(opening, retryAfter = 0) {
    this.onState('reconnecting');
    const delay = retryAfter * 1000 + jitter(Math.min(30000, 1000 * 2 ** this.retries++));
    this.retryTimer = setTimeout(() => { if (this.opening === opening) this.connect(); }, delay);
  }

  /** A snapshot or reset: the window becomes `body.items`, keeping the nodes of rows it had. */
  replace(body, kind) {
    this.v = body.v;
    const wanted = new Set(body.items.map((row) => row.id));
    for (const id of [...this.nodes.keys()]) if (!wanted.has(id)) this.remove(id);
    body.items.forEach((row, index) => {
      const node = this.nodes.has(row.id) ? this.update(row, false) : this.make(row);
      if (this.container.children[index] !== node) this.place(node, index);
    });
    this.onBody(body, kind);
  }

  /** A delta: its ops in order; a gap in versions means events were missed, so start over. */
  patch(delta) {
    if (this.v !== null && delta.base !== this.v) { this.connect(); return; }
    this.v = delta.v;
    for (const op of delta.ops) {
      if (op.op === 'remove') this.remove(op.id);
      else if (op.op === 'insert') this.place(this.nodes.has(op.row.id) ? this.update(op.row) : this.make(op.row), op.index);
      else if (op.op === 'update') this.update(op.row);
      else if (op.op === 'move' && this.nodes.has(op.id)) this.place(this.nodes.get(op.id), op.to);
    }
    this.onBody(delta, 'delta');
    performance.mark('listservice:patch', { detail: { v: delta.v, at: delta.at, ops: delta.ops.length } });
  }

  /** Rows of a further page (read with nextCursor) put after the window. */
  append(rows) {
    for (const row of rows) if (!this.nodes.has(row.id)) this.container.append(this.make(row));
  }

  get count() { return this.nodes.size; }

  /** Takes every row out (the criteria were refused: the old rows no longer answer them). */
  clear() {
    for (const id of [...this.nodes.keys()]) this.remove(id);
  }

  make(row) {
    const node = this.render(row);
    node.dataset.id = row.id;
    this.nodes.set(row.id, node);
    this.contents.set(row.id, JSON.stringify(row));
    return node;
  }

  /** New content in the same node: its children and attributes replaced, nothing else. */
  update(row, flash = true) {
    const node = this.nodes.get(row.id);
    if (!node) return this.make(row);
    const json = JSON.stringify(row);
    if (json === this.contents.get(row.id)) return node;
    this.contents.set(row.id, json);
    const fresh = this.render(row);
    node.replaceChildren(...fresh.childNodes);
    for (const attribute of fresh.attributes) node.setAttribute(attribute.name, attribute.value);
    if (flash) {
      node.classList.remove('flash');
      void node.getBoundingClientRect();
      node.classList.add('flash');
    }
    return node;
  }

  remove(id) {
    this.nodes.get(id)?.remove();
    this.nodes.delete(id);
    this.contents.delete(id);
  }

  place(node, index) {
    const before = this.container.children[index] ?? null;
    if (before !== node) this.container.insertBefore(node, before);
  }
}
