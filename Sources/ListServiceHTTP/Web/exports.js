// The Export menu: the whole list as shown, as a file: CSV of plain values, CSV for a
// spreadsheet in the chosen language, or NDJSON.
import { authorization, token, withQuery } from './api.js';
import { h } from './view.js';

/** The menu for the list at `path`; `query()` gives its criteria and display when asked. */
export function exportMenu(path, query) {
  const menu = h('div.menu');
  const element = h('details.export', {
    ontoggle: () => { if (element.open) fill(); },
  }, h('summary', {}, 'Export'), menu);

  function fill() {
    const { group, limit, ...criteria } = query();
    const language = new Intl.DisplayNames([criteria.locale], { type: 'language' }).of(criteria.locale.split('-')[0]);
    const files = [
      ['csv-raw', 'CSV (plain values)', { ...criteria, format: 'csv', raw: '1' }],
      ['csv', `CSV for spreadsheets (${language})`, { ...criteria, format: 'csv' }],
      ['ndjson', 'NDJSON', { ...criteria, format: 'ndjson' }],
    ];
    menu.replaceChildren(...files.map(([kind, label, params]) => h('a', {
      href: withQuery(`${path}/export`, params), download: '', 'data-export': kind,
      onclick: (event) => { element.open = false; if (token()) { event.preventDefault(); download(event.currentTarget.href); } },
    }, label)));
  }

  return element;
}

/** A signed-in download: a link cannot send `Authorization`, so the file is fetched. */
async function download(url) {
  const response = await fetch(url, { headers: authorization() });
  if (!response.ok) return;
  const name = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? 'export';
  const link = h('a', { href: URL.createObjectURL(await response.blob()), download: name });
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}
