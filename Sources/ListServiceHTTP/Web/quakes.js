// Earthquakes: one day's quakes as a list beside a map of the same set. Selecting a quake in
// either highlights it in both, through the session's selection on the server.
import { LiveList } from './live.js';
import { send, withQuery } from './api.js';
import { h } from './view.js';

// Plate carrée at 2 units per degree, as world.svg is drawn.
const x = (longitude) => ((longitude + 180) * 2).toFixed(1);
const y = (latitude) => ((90 - latitude) * 2).toFixed(1);
let selectedId = null;
// What the server last said the selection is, and whether a PUT of ours is on its way: one at
// a time, since two could reach the server in either order and it keeps the last it handles;
// a choice made meanwhile goes when the one on its way is answered.
let confirmedId = null;
let putting = false;
// The selections the stream said while our PUT was on its way. The stream says every
// selection of the session (ours and other tabs') in the order the server made them: once it
// has said ours, the last it said is the session's, and a late answer must not undo a later
// choice of another tab.
let heardWhilePutting = [];

function select(screen, id) {
  selectedId = selectedId === id ? null : id;
  highlight(screen, true);
  if (!putting) putSelection(screen);
}

function putSelection(screen) {
  putting = true;
  heardWhilePutting = [];
  const sent = selectedId;
  send('PUT', '/session/selection', { body: { collection: 'quakes', id: sent } })
    .then((answer) => { if (!heardWhilePutting.includes(answer.selectedId)) confirmedId = answer.selectedId; })
    .catch((problem) => { screen.tell(problem.message); })
    .finally(() => {
      putting = false;
      if (selectedId === sent) {
        selectedId = confirmedId;  // as the server has it: the answer's, or the one before a refusal
        highlight(screen);
      } else if (selectedId !== confirmedId) {
        putSelection(screen);
      }
    });
}

/** The selection a list or map reports (a page, a snapshot, a `selection` event from any tab
 *  of the session): taken, unless a choice of ours is on its way. */
function heard(screen, id) {
  confirmedId = id;
  if (putting) { heardWhilePutting.push(id); return; }
  selectedId = id;
  highlight(screen);
}

/** Marks the selected quake in the list and on the map; `reveal` scrolls its row into view
 * (after the user chose it, not on every live change). */
function highlight(screen, reveal = false) {
  for (const node of screen.element.querySelectorAll('[data-id]')) {
    const isSelected = node.dataset.id === selectedId;
    node.classList.toggle('selected', isSelected);
    (node.querySelector('button.pick') ?? node).setAttribute('aria-pressed', String(isSelected));
  }
  if (reveal) screen.element.querySelector(`li[data-id="${CSS.escape(selectedId ?? '')}"]`)?.scrollIntoView({ block: 'nearest' });
}

const onKey = (screen, id) => (event) => {
  if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); select(screen, id); }
};

/** A row: a list item holding one toggle button (a list's items stay items to a screen reader). */
function row(quake, screen) {
  const isSelected = quake.id === selectedId;
  return h(`li.row.quake${isSelected ? '.selected' : ''}`, {},
    h('button.pick', { type: 'button', 'aria-pressed': String(isSelected), onclick: () => select(screen, quake.id) },
      h('span.magnitude', { 'data-band': quake.magnitudeBand ?? 'unknown' }, quake.formattedMagnitude),
      h('span.main', {}, h('strong.title', {}, quake.place), h('span.meta', {}, quake.formattedTime, ' · ', quake.formattedDepth))));
}

function marker(quake, screen) {
  const isSelected = quake.id === selectedId;
  return h(`circle.marker${isSelected ? '.selected' : ''}`, {
    'data-band': quake.magnitudeBand ?? 'unknown', cx: x(quake.longitude), cy: y(quake.latitude), r: quake.markerRadius, tabindex: 0, role: 'button',
    'aria-pressed': String(isSelected), 'aria-label': `${quake.formattedMagnitude}, ${quake.place}`,
    onclick: () => select(screen, quake.id), onkeydown: onKey(screen, quake.id),
  }, h('title', {}, `${quake.formattedMagnitude} · ${quake.place}\n${quake.formattedTime} · ${quake.formattedDepth}`));
}

/** The map: a second live list, on /quakes/map/live with the list's day and search. */
function map(screen) {
  const markers = h('g.markers');
  const caption = h('figcaption', { 'aria-live': 'polite' });
  const svg = h('svg.map', { viewBox: '0 0 720 360', role: 'group', 'aria-label': 'Map of the same earthquakes' },
    h('image', { href: `${screen.app.assets}/world.svg`, width: 720, height: 360 }), markers);
  screen.layout.append(h('figure.panel.map-panel', {}, svg, caption,
    h('p.credit', {}, 'Land outline: Made with Natural Earth (public domain).')));
  const list = new LiveList(markers, {
    render: (quake) => marker(quake, screen),
    onState: (state, detail) => { screen.app.setLive('quakes-map', state); if (detail) caption.textContent = detail; },
    onBody: (body) => {
      if ('selectedId' in body) heard(screen, body.selectedId);
      if ('formattedTotal' in body) caption.textContent = `${body.formattedTotal} on the map, largest drawn first`;
    },
  });
  return {
    open() {
      const { date, q } = screen.criteria;
      list.open(withQuery('/quakes/map/live', { date, q, ...screen.app.display() }));
    },
    close() { list.close(); screen.app.setLive('quakes-map', null); },
  };
}

export const quakes = {
  name: 'quakes', path: '/quakes', title: 'Earthquakes', pageSize: 500, row,
  empty: 'No earthquakes that day.',
  noun: (n, formatted) => `${formatted} ${n === 1 ? 'earthquake' : 'earthquakes'}`,
  defaults: { date: '', q: '', sort: 'time', order: 'desc' },
  controls: [
    { kind: 'date', key: 'date', label: 'Day' },
    { kind: 'search', key: 'q', label: 'Search places' },
    { kind: 'picker', key: 'sort', label: 'Sort by', options: [['time', 'Time'], ['magnitude', 'Magnitude']] },
    { kind: 'direction', key: 'order', labels: { asc: 'Forward', desc: 'Reverse' } },
  ],
  onBody: (body, screen) => {
    if ('selectedId' in body) heard(screen, body.selectedId);
    if (body.criteria?.date && !screen.criteria.date) screen.element.querySelector('input[type=date]').value = body.criteria.date;
  },
  extend: map,
};
