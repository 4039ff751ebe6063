// Live lists over the tab's one stream: `GET /live` carries every list the page shows, each
// put on it under its own key (`PUT /live/<stream>/lists/<key>`), so a page with a list and
// a map holds one connection. Each list's events are applied to a container's children op
// by op, so rows that did not change keep their DOM nodes.
import { authorization, liveAddress, send, token } from './api.js';

const jitter = (ms) => ms * (0.5 + Math.random());

/** The tab's multiplexed stream: opens itself when a list is first watched, puts each list on
 *  it, hands each event to its list, and resumes every list at once after a drop. */
class PageStream {
  constructor() {
    this.lists = new Map(); // key → LiveList
    this.source = null;
    this.id = null; // the stream's id, from its `hello`
    this.lastEventId = null;
    this.retries = 0;
    this.opening = null;
  }

  /** Puts `list` (at `list.url`) on the stream, replacing what it watched before. */
  watch(list) {
    this.lists.set(list.key, list);
    list.putOn = null;
    list.setState('connecting');
    if (this.signedInAs !== token()) this.connect(true); // another caller: another session, another stream
    else if (this.id && this.source) this.put(list);
    else if (!this.opening && !this.source) this.connect();
  }

  /** Takes `list` off the stream. */
  unwatch(list) {
    if (this.lists.get(list.key) !== list) return;
    this.lists.delete(list.key);
    if (!list.putting) this.drop(list, list.putOn);
  }

  /** Asks the server to stop `list` on stream `id` (unless signed in or out since: that stream
   *  is the previous caller's, and is about to be replaced). */
  drop(list, id) {
    if (id && id === this.id && this.signedInAs === token()) {
      send('DELETE', `/live/${id}/lists/${list.key}`).catch(() => {});
    }
  }

  /** Puts `list` on the stream at its current url. One `PUT` per list at a time: two sent at
   *  once (a day picked, then a sort) may reach the server in either order over two
   *  connections, and the earlier criteria would win; so a change meanwhile is put after. */
  async put(list) {
    if (list.putting) { list.putAgain = true; return; }
    list.putting = true;
    const { url } = list, id = this.id;
    try {
      await send('PUT', `/live/${id}/lists/${list.key}`, { body: { path: url } });
      if (this.id === id && list.url === url) list.putOn = id;
    } catch (problem) {
      if (this.id !== id || list.url !== url || this.lists.get(list.key) !== list) return;
      if (problem.status === 404) this.connect(true); // the stream is gone: a new one, and every list on it
      else if (problem.status >= 400 && problem.status < 500 && problem.status !== 429) list.setState('refused', problem.message);
      else setTimeout(() => { if (this.lists.get(list.key) === list && list.url === url) this.put(list); }, jitter(1000));
    } finally {
      list.putting = false;
      const again = list.putAgain;
      list.putAgain = false;
      if (this.lists.get(list.key) !== list) this.drop(list, id); // closed while its PUT was on the way
      else if (again && this.id) this.put(list);
    }
  }

  /** Opens the stream; signed in, with a new ticket each time; resuming after the last event
   *  unless `fresh`. */
  async connect(fresh = false) {
    this.source?.close();
    this.source = null;
    clearTimeout(this.retryTimer);
    if (fresh) { this.id = null; this.lastEventId = null; }
    const opening = {};
    this.opening = opening;
    this.signedInAs = token();
    let address;
    try {
      address = await liveAddress('/live', this.lastEventId);
    } catch (problem) {
      if (this.opening !== opening) return;
      if (problem.status >= 400 && problem.status < 500) this.each('refused', problem.message);
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
    source.addEventListener('open', mine(() => { this.retries = 0; }));
    source.addEventListener('hello', mine((event) => {
      const id = JSON.parse(event.data).stream;
      const resumed = id === this.id;
      this.id = id;
      this.opening = null;
      for (const list of this.lists.values()) {
        if (resumed && list.putOn === id) list.setState('live');
        else this.put(list);
      }
    }));
    for (const kind of ['snapshot', 'reset', 'delta', 'selection']) {
      source.addEventListener(kind, mine((event) => {
        const body = JSON.parse(event.data);
        this.lists.get(body.list)?.receive(kind, body);
      }));
    }
    source.addEventListener('error', mine(() => {
      // EventSource retries a dropped stream by itself, with Last-Event-ID; a refusal (a
      // non-200 such as 503) closes it for good, so the page retries with jitter. A ticket is
      // good once: a signed-in page reopens the stream itself, with a new one.
      if (source.readyState === EventSource.CLOSED || token()) {
        source.close();
        this.refused(source, opening);
      } else {
        this.each('reconnecting');
      }
    }));
  }

  each(state, detail) { for (const list of this.lists.values()) list.setState(state, detail); }

  /** Learns why the stream was refused: a 4xx is shown for good, anything else retried. */
  async refused(source, opening) {
    let status = 0, body = null, retryAfter = 0;
    const abort = new AbortController();
    try {
      const response = await fetch('/live', { signal: abort.signal, headers: authorization() });
      status = response.status;
      retryAfter = Number(response.headers.get('Retry-After')) || 0;
      if (!response.ok) body = await response.json().catch(() => null);
    } catch { /* the service cannot be reached: retried below */ }
    abort.abort();
    if (this.source !== source) return;
    if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
      this.each('refused', body?.detail || `The service answered ${status}.`);
      return;
    }
    this.retry(opening, retryAfter);
  }

  /** Opens the stream again later: never before the server's Retry-After, and spread out
   *  after it, so that the clients it turned away do not all come back at the same moment. */
  retry(opening, retryAfter = 0) {
    this.each('reconnecting');
    this.source = null;
    const delay = retryAfter * 1000 + jitter(Math.min(30000, 1000 * 2 ** this.retries++));
    this.retryTimer = setTimeout(() => { if (this.opening === opening) this.connect(); }, delay);
  }
}

const pageStream = new PageStream();
let lastKey = 0;

export class LiveList {
  /**
   * @param container the element whose children are the rows, in the window's order
   * @param options.render (row) => Element for one row (called again when a row changes)
   * @param options.onBody (body, kind) => void for each snapshot, reset, delta and selection
   * @param options.onState (state) => void: connecting, live, reconnecting, refused
   * @param options.beforeChange () => void before an event changes the rows: takes out what
   *   the screen put between them (section headers), so the container's children are the rows
   */
  constructor(container, { render, onBody = () => {}, onState = () => {}, beforeChange = () => {} }) {
    Object.assign(this, { container, render, onBody, onState, beforeChange });
    this.nodes = new Map(); // id → element
    this.contents = new Map(); // id → the row's JSON, to see what changed
    this.key = `list-${++lastKey}`; // its name on the tab's stream
    this.url = null;
  }

  /** Watches `url` (a list's /live address), replacing what it watched before. */
  open(url) {
    this.url = url;
    this.v = null;
    pageStream.watch(this);
  }

  close() {
    pageStream.unwatch(this);
    this.url = null;
  }

  /** An event of this list from the stream (a `selection`, made in any tab of the session,
   *  changes no row: only the screen hears it). */
  receive(kind, body) {
    if (kind === 'selection') { this.onBody(body, kind); return; }
    this.beforeChange();
    if (kind === 'delta') this.patch(body);
    else this.replace(body, kind);
    this.setState('live');
  }

  /** Tells the screen the list's state when it changes (a refusal always, with its reason). */
  setState(state, detail) {
    if (state === this.state && state !== 'refused') return;
    this.state = state;
    this.onState(state, detail);
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

  /** A delta: its ops in order; a gap in versions means events were missed, so start over
   *  (the list is put on the stream again: a new snapshot). */
  patch(delta) {
    if (this.v !== null && delta.base !== this.v) { this.v = null; pageStream.put(this); return; }
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
