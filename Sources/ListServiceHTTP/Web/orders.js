// Orders: search, filter chips, sort; complete or cancel with If-Match.
import { send } from './api.js';
import { h, badge } from './view.js';
import { directionControl } from './screen.js';

function row(order, screen) {
  const act = (name) => screen.attempt(order.title,
    send('POST', `/orders/${encodeURIComponent(order.id)}/${name}`, { version: order.version }));
  const action = (name, label) => h('button.action', {
    type: 'button', 'data-action': name, 'aria-label': `${label} ${order.title}`, onclick: () => act(name),
  }, label);
  return h(`li.row.order.status-${order.status}`, {},
    h('div.main', {},
      h('strong.title', {}, order.title),
      h('span.customer', {}, order.customerName),
      h('span.meta', {}, order.formattedDate, ' · ', order.shippingLabel)),
    h('div.side', {},
      h('span.total', {}, order.formattedTotal),
      h('span.badges', {},
        badge(order.statusLabel, `status-${order.status}`),
        order.requiresSignature ? badge('✍ Signature', 'signature') : null,
        order.isHighValue ? badge('High value', 'high') : null)),
    h('div.actions', {},
      order.canComplete ? action('complete', 'Complete') : null,
      order.canCancel ? action('cancel', 'Cancel') : null));
}

export const orders = {
  name: 'orders', path: '/orders', title: 'Orders', pageSize: 50, row,
  bulkActions: [['complete', 'Complete'], ['cancel', 'Cancel'], ['delete', 'Delete']],
  empty: 'No orders match.',
  noun: (n, formatted) => `${formatted} ${n === 1 ? 'order' : 'orders'}`,
  defaults: { filter: 'all', q: '', sort: 'date', order: 'desc', group: '' },
  groupSorts: { day: 'date', month: 'date', status: 'status' },
  sortOrders: { status: 'asc' },
  controls: [
    { kind: 'search', key: 'q', label: 'Search customer or title' },
    { kind: 'chips', key: 'filter', label: 'Filter', options: [
      ['all', 'All'], ['pending', 'Pending'], ['completed', 'Completed'], ['cancelled', 'Cancelled'],
      ['highValue', 'High value'], ['currentMonth', 'This month']] },
    { kind: 'picker', key: 'sort', label: 'Sort by', options: [['date', 'Date'], ['total', 'Total'], ['customer', 'Customer'], ['status', 'Status']] },
    { kind: 'picker', key: 'group', label: 'Group by', options: [['', 'None'], ['day', 'Day'], ['month', 'Month'], ['status', 'Status']] },
    directionControl,
  ],
};
