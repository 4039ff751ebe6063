// A grouped list's sections: a sticky header (title, subtitle, count, summary) before the
// first row of each section in the window, kept as the server's snapshots and deltas say, and
// an index (A–Z) that jumps to a section. Nothing here counts or formats: the server did.
import { h } from './view.js';

export class Sections {
  /** `rows`: the list's container; `onJump(section)`: a section not in the window was chosen. */
  constructor(rows, { onJump }) {
    this.rows = rows;
    this.onJump = onJump;
    this.list = [];
    this.index = h('nav.section-index', { 'aria-label': 'Jump to section', hidden: true });
  }

  /** A snapshot's sections (every one), or a delta's (those that changed, with `after` for a
   *  new one, and `removedSections`). */
  apply(body, kind) {
    if (kind !== 'delta') {
      this.list = body.sections ?? [];
      return;
    }
    const removed = new Set(body.removedSections ?? []);
    this.list = this.list.filter((section) => !removed.has(section.key));
    for (const { after, ...section } of body.sections ?? []) {
      const known = this.list.findIndex((other) => other.key === section.key);
      if (known >= 0) this.list[known] = section;
      else this.list.splice(after == null ? 0 : this.list.findIndex((other) => other.key === after) + 1, 0, section);
    }
  }

  /** Takes the headers out, so that the container's children are the window's rows again. */
  strip() {
    for (const header of this.rows.querySelectorAll(':scope > .section-header')) header.remove();
  }

  /** Puts a header before the first row of each section the window shows, and fills the index. */
  decorate(showIndex) {
    this.strip();
    const byKey = new Map(this.list.map((section) => [section.key, section]));
    let previous = null;
    for (const row of [...this.rows.children]) {
      const key = row.dataset.section;
      if (!key || key === previous) continue;
      previous = key;
      const section = byKey.get(key);
      if (section) row.before(header(section));
    }
    this.index.hidden = !showIndex || this.list.length === 0;
    if (!this.index.hidden) {
      this.index.replaceChildren(...this.list.map((section) =>
        h('button', { type: 'button', 'data-key': section.key, 'aria-label': `${section.title}, ${section.formattedCount}`,
          onclick: () => this.jump(section.key) }, section.title)));
    }
  }

  /** Brings a section's header into view: scrolled to when the window holds it, else the
   *  screen opens the list at the section's cursor. */
  jump(key) {
    const shown = this.header(key);
    if (shown) shown.scrollIntoView({ block: 'start' });
    else {
      const section = this.list.find((other) => other.key === key);
      if (section) this.onJump(section);
    }
  }

  header(key) {
    return this.rows.querySelector(`:scope > .section-header[data-key="${CSS.escape(key)}"]`);
  }

  clear() {
    this.list = [];
    this.strip();
    this.index.hidden = true;
  }
}

function header(section) {
  return h('li.section-header', { 'data-key': section.key },
    h('h3', {}, section.title, section.subtitle ? h('span.section-subtitle', {}, section.subtitle) : null),
    h('span.section-count', {}, section.formattedCount),
    section.summary ? h('span.section-summary', {}, section.summary) : null);
}
