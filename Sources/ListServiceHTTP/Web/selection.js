// Rows selected for an action on many at once: a checkbox per row (shift-click selects a
// range), "Select all on page", and a bar of the list's bulk actions, each enabled while a
// selected row allows it (its `can…` flag, where rows carry one); each refused row shows why,
// the others leave the selection once done.
import { send } from './api.js';
import { h } from './view.js';

export class Selection {
  /** `actions`: [name, label] pairs of `POST {path}/actions/{name}`; `tell(message, kind)` reports. */
  constructor(rows, path, actions, tell) {
    // `shown`: each row as last shown, by id (its version for If-Match, its `can…` flags).
    Object.assign(this, { rows, path, tell, selected: new Set(), shown: new Map(), last: null });
    this.all = h('input', { type: 'checkbox', onchange: () => this.selectPage(this.all.checked) });
    this.count = h('span.selected-count', { 'aria-live': 'polite' });
    this.buttons = actions.map(([action, label]) => h('button.action', {
      type: 'button', 'data-bulk': action, disabled: true, onclick: () => this.run(action, label),
    }, label));
    this.bar = h('div.bulk', { role: 'toolbar', 'aria-label': 'Selected rows' },
      h('label.select-all', {}, this.all, ' Select all on page'), this.count, ...this.buttons);
  }

  /** Puts the row's checkbox in its node (rendered anew on every change). */
  decorate(node, row) {
    this.shown.set(row.id, row);
    const box = h('input.select', { type: 'checkbox', 'aria-label': `Select ${row.title ?? row.name ?? row.id}` });
    box.checked = this.selected.has(row.id);
    box.addEventListener('click', (event) => this.toggle(row.id, box.checked, event.shiftKey));
    node.prepend(box);
    return node;
  }

  toggle(id, on, isRange) {
    const ids = this.pageIDs();
    const [from, to] = [ids.indexOf(this.last), ids.indexOf(id)].sort((a, b) => a - b);
    if (isRange && from >= 0) for (const each of ids.slice(from, to + 1)) this.set(each, on);
    this.set(id, on);
    this.last = id;
    this.refresh();
  }

  set(id, on) {
    if (on) this.selected.add(id); else this.selected.delete(id);
    const box = this.rows.querySelector(`li[data-id="${CSS.escape(id)}"] > input.select`);
    if (box) box.checked = on;
  }

  pageIDs() { return [...this.rows.querySelectorAll(':scope > li[data-id]')].map((li) => li.dataset.id); }

  selectPage(on) {
    for (const id of this.pageIDs()) this.set(id, on);
    this.refresh();
  }

  /** The count, the buttons and "select all" as the selection and the page now are. */
  refresh() {
    const ids = this.pageIDs();
    this.count.textContent = this.selected.size ? `${this.selected.size} selected` : '';
    for (const button of this.buttons) {
      const flag = `can${button.dataset.bulk[0].toUpperCase()}${button.dataset.bulk.slice(1)}`;
      button.disabled = ![...this.selected].some((id) => this.shown.get(id)?.[flag] !== false);
    }
    this.all.checked = ids.length > 0 && ids.every((id) => this.selected.has(id));
  }

  async run(action, label) {
    if (action === 'delete' && !confirm(`Delete ${this.selected.size} selected?`)) return;
    const items = [...this.selected].slice(0, 500).map((id) => ({ id, ifMatch: this.shown.get(id)?.version }));
    let answer;
    try {
      answer = await send('POST', `${this.path}/actions/${action}`, { body: { items } });
    } catch (problem) {
      if (!problem.body?.items) return this.tell(`${label}: ${problem.message}`);
      answer = problem.body;  // none accepted: each item's refusal is still listed
    }
    for (const { id, problem } of answer.items) {
      const node = this.rows.querySelector(`li[data-id="${CSS.escape(id)}"]`);
      node?.querySelector('.outcome')?.remove();
      if (problem) node?.append(h('p.outcome', { role: 'note' }, problem.detail));
      else this.set(id, false);
    }
    this.tell(answer.refused ? `${label}: ${answer.accepted} done, ${answer.refused} refused (the rows say why).` : '');
    this.refresh();
  }
}
