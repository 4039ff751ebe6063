// People: the tap counter. Tapping a person adds one tap; only that row changes.
import { send } from './api.js';
import { h } from './view.js';
import { directionControl } from './screen.js';

function row(user, screen) {
  const tap = () => screen.attempt(user.name, send('POST', `/users/${encodeURIComponent(user.id)}/tap`));
  return h('li.row.user', {},
    h('button.tap', { type: 'button', 'aria-label': `Tap ${user.name}, ${user.tapsLabel}`, onclick: tap },
      h('span.avatar', { 'aria-hidden': 'true' }, user.initials),
      h('span.name', {}, user.name),
      h('span.taps', {}, user.tapsLabel)));
}

export const users = {
  name: 'users', path: '/users', title: 'People', pageSize: 50, row,
  empty: 'Nobody matches.',
  noun: (n, formatted) => `${formatted} ${n === 1 ? 'person' : 'people'}: tap one to count`,
  defaults: { q: '', sort: 'name', order: 'asc', group: 'initial' },
  // By name, people fall under their initials, with an index (A–Z) that jumps.
  groupSorts: { initial: 'name' },
  groupFor: { name: 'initial' },
  sectionIndex: true,
  controls: [
    { kind: 'search', key: 'q', label: 'Search names' },
    { kind: 'picker', key: 'sort', label: 'Sort by', options: [['name', 'Name'], ['taps', 'Taps']] },
    directionControl,
  ],
};
