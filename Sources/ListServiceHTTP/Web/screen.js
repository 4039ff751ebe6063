// A list screen: controls bound to criteria kept in the URL, one live list with its sections,
// its count, load more, and loading, empty and error states. Each collection's module gives
// its vocabulary.
import { LiveList } from './live.js';
import { Sections } from './sections.js';
import { exportMenu } from './exports.js';
import { Selection } from './selection.js';
import { send, withQuery } from './api.js';
import { h, searchBox, chips, picker, direction } from './view.js';

/** The sort direction control every list screen has. */
export const directionControl = { kind: 'direction', key: 'order', labels: { asc: 'Ascending', desc: 'Descending' } };

const controlMakers = {
  search: (control, change) => searchBox(control.label, change),
  chips: (control, change) => chips(control.label, control.options, change),
  picker: (control, change) => picker(control.label, control.options, change),
  direction: (control, change) => direction(control.labels, change),
  date: (control, change) => {
    const input = h('input', { type: 'date', onchange: () => change(input.value) });
    return { element: h('label.picker', {}, control.label, ' ', input), set(value) { input.value = value; } };
  },
};

/** The most rows a live window holds (the API's largest `limit`). */
const maxWindow = 500;

/**
 * Makes a screen from `config`: `name`, `path`, `title`, `noun(n, formatted)`, `defaults`,
 * `controls`, `row(row, screen)`, `pageSize`, and optionally `extend(screen)` for what sits
 * beside the list (a form, a map) and `onBody(body)`. A grouped list names the sort each
 * grouping needs (`groupSorts`), the grouping a sort brings (`groupFor`), and whether its
 * sections make an index that jumps (`sectionIndex`); `sortOrders`, the direction a sort
 * starts in where it has a natural one; `bulkActions`, [name, label] pairs for selected rows.
 */
export function listScreen(config, app) {
  const criteria = { ...config.defaults };
  const controls = {};
  // The list's total, and as the server wrote it for the locale (`formattedTotal`).
  let limit = config.pageSize, total = null, formattedTotal = '', nextCursor = null, openedWith = '';
  // Where the window starts when not at the top (`around` from a link, a section's `cursor`),
  // the row a link names (highlighted once shown), and the section an index jump waits for.
  let startAt = {}, highlight = null, pendingJump = null;

  const rows = h('ol.rows', { 'aria-label': config.title, 'aria-describedby': `${config.name}-count` });
  const count = h('p.count', { id: `${config.name}-count`, 'aria-live': 'polite' });
  const state = h('div.state', { role: 'status' }, 'Loading…');
  const notice = h('p.notice', { role: 'alert', hidden: true });
  const more = h('button.more', { type: 'button', hidden: true, onclick: () => loadMore() }, 'Load more');
  const bar = h('div.controls');
  for (const control of config.controls) {
    controls[control.key] = controlMakers[control.kind](control, (value) => change(control.key, value));
    bar.append(controls[control.key].element);
  }
  const sections = new Sections(rows, {
    onJump(section) {
      startAt = section.cursor ? { cursor: section.cursor } : {};
      pendingJump = section.key;
      limit = config.pageSize;
      open();
    },
  });
  bar.append(exportMenu(config.path, () => screen.query()));
  const selection = config.bulkActions && new Selection(rows, config.path, config.bulkActions, (message) => screen.tell(message));
  const listPanel = h('section.panel', { 'aria-label': config.title },
    count, selection?.bar ?? '', sections.index, notice, state, rows, more);
  const element = h('div.screen', {}, h('h2', {}, config.title), bar, h('div.layout', {}, listPanel));

  const screen = {
    element, criteria, app,
    layout: element.lastChild,
    /** Shows a refusal's message (a 409, a 412) above the list. */
    tell(message, kind = 'error') {
      notice.textContent = message;
      notice.dataset.kind = kind;
      notice.hidden = !message;
    },
    query(extra = {}) { return { ...criteria, ...app.display(), ...extra }; },
    /** Sends a write for the row named `label`; a refusal's message is shown with that name. */
    async attempt(label, write) {
      try {
        await write;
        screen.tell('');
      } catch (problem) {
        screen.tell(`${label}: ${problem.message}`);
      }
    },
  };

  const list = new LiveList(rows, {
    render: (row) => {
      const node = config.row(row, screen);
      if (row.sectionKey) node.dataset.section = row.sectionKey;
      return selection ? selection.decorate(node, row) : node;
    },
    beforeChange: () => sections.strip(),
    onState: (liveState, detail) => {
      app.setLive(config.name, liveState);
      if (liveState === 'refused') showState(detail, true);
    },
    onBody: (body, kind) => {
      if (kind === 'selection') return config.onBody?.(body, screen);  // no row changed
      if ('total' in body) ({ total, formattedTotal } = body);
      if ('nextCursor' in body) nextCursor = body.nextCursor;
      // A snapshot carries every count, a delta the ones that changed.
      if (body.formattedCounts) for (const control of Object.values(controls)) control.setCounts?.(body.formattedCounts);
      sections.apply(body, kind);
      sections.decorate(Boolean(config.sectionIndex));
      if (kind !== 'delta') {
        showPending();
        performance.mark(`listservice:rows:${config.name}`);
      }
      if (kind === 'delta' && body.ops.length) app.announce(`${body.ops.length} ${body.ops.length === 1 ? 'row' : 'rows'} changed`);
      rows.removeAttribute('aria-busy');
      selection?.refresh();
      config.onBody?.(body, screen);
      refresh();
    },
  });
  const extension = config.extend?.(screen);

  function refresh() {
    count.textContent = total === null ? '' : config.noun(total, formattedTotal);
    if (list.count === 0) showState(config.empty, false);
    else state.hidden = true;
    more.hidden = !nextCursor;
    more.disabled = list.count >= maxWindow;
    more.textContent = more.disabled ? `Showing the first ${maxWindow}: narrow the search to see others` : 'Load more';
  }

  /** After a snapshot: the section an index jump asked for at the top, or the row a link
   *  named highlighted in the middle of the screen. */
  function showPending() {
    if (pendingJump) sections.header(pendingJump)?.scrollIntoView({ block: 'start' });
    pendingJump = null;
    const linked = highlight && rows.querySelector(`[data-id="${CSS.escape(highlight)}"]`);
    if (linked) {
      linked.classList.add('highlight');
      linked.setAttribute('aria-current', 'true');
      linked.scrollIntoView({ block: 'center' });
      highlight = null;
    }
  }

  function showState(message, isError) {
    state.hidden = false;
    state.className = isError ? 'state error' : 'state';
    state.replaceChildren(message, isError ? h('button', { type: 'button', onclick: () => open(true) }, 'Try again') : '');
    if (isError) {
      list.clear();
      sections.clear();
      total = null;
      nextCursor = null;
      count.textContent = '';
      more.hidden = true;
    }
  }

  /** Watches the list for the current criteria and display (again if `force`). */
  function open(force = false) {
    const url = withQuery(`${config.path}/live`, screen.query({ limit, ...startAt }));
    if (url === openedWith && !force) return;
    openedWith = url;
    // The rows are in the display's language; the page around them stays English.
    rows.lang = app.display().locale;
    rows.setAttribute('aria-busy', 'true');
    if (list.count === 0) showState('Loading…', false);
    list.open(url);
    extension?.open?.();
  }

  function change(key, value) {
    criteria[key] = value;
    // A grouping brings the sort it needs; a sort it does not fit ends it (or brings its own).
    const sort = criteria.sort;
    if (key === 'group' && value) criteria.sort = config.groupSorts[value];
    if (key === 'sort' && config.groupSorts && config.groupSorts[criteria.group] !== value) {
      criteria.group = config.groupFor?.[value] ?? '';
    }
    // A sort with a natural direction (statuses: pending first) starts in it.
    if (criteria.sort !== sort || key === 'sort') criteria.order = config.sortOrders?.[criteria.sort] ?? criteria.order;
    controls.sort?.set(criteria.sort);
    controls.group?.set(criteria.group);
    controls.order?.set(criteria.order);
    startAt = {};
    highlight = null;
    limit = config.pageSize;
    app.navigate(config.name, criteria, config.defaults);
    screen.tell('');
    open();
  }

  async function loadMore() {
    more.disabled = true;
    const asked = openedWith;
    try {
      const page = await send('GET', withQuery(config.path, screen.query({ cursor: nextCursor, limit: config.pageSize })));
      if (openedWith === asked) { // else the criteria or the display changed meanwhile: not this list's rows
        list.append(page.items);
        sections.decorate(Boolean(config.sectionIndex));
        limit = Math.min(maxWindow, list.count);
        open();
      }
    } catch (problem) {
      screen.tell(problem.message);
    }
    refresh();
  }

  return {
    element,
    /** Shows the criteria `params` (from the URL), the rest at their defaults; `around=<id>`
     *  opens the list at that row, highlighted. */
    show(params) {
      startAt = params.around ? { around: params.around } : {};
      highlight = params.around ?? null;
      for (const key of Object.keys(config.defaults)) {
        criteria[key] = params[key] ?? config.defaults[key];
        controls[key]?.set(criteria[key]);
      }
      open();
    },
    /** The locale or time zone changed: the same criteria, formatted anew. */
    redisplay() { open(); },
    close() { list.close(); extension?.close?.(); app.setLive(config.name, null); },
  };
}
