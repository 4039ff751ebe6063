// Small DOM helpers and the controls the list screens share.

const SVG = 'http://www.w3.org/2000/svg';
const SVG_TAGS = new Set(['svg', 'g', 'circle', 'image', 'title']);

/** An element: `h('li.row', {onclick, 'aria-label': …}, child, …)`; strings become text. */
export function h(tag, attributes = {}, ...children) {
  const [name, ...classes] = tag.split('.');
  const node = SVG_TAGS.has(name) ? document.createElementNS(SVG, name) : document.createElement(name);
  if (classes.length) node.setAttribute('class', classes.join(' '));
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : value);
  }
  node.append(...children.flat().filter((child) => child !== null && child !== undefined && child !== false));
  return node;
}

/** Calls `action` once input has paused for `ms`. */
function debounce(action, ms = 250) {
  let timer;
  return (...values) => { clearTimeout(timer); timer = setTimeout(() => action(...values), ms); };
}

/** A search box that reports its text once typing pauses. */
export function searchBox(label, onChange) {
  const input = h('input', { type: 'search', placeholder: label, 'aria-label': label, autocomplete: 'off', spellcheck: 'false' });
  const report = debounce(() => onChange(input.value.trim()));
  input.addEventListener('input', report);
  input.addEventListener('keydown', (event) => { if (event.key === 'Enter') onChange(input.value.trim()); });
  return { element: input, set(value) { if (document.activeElement !== input) input.value = value; } };
}

/** Toggle buttons, one pressed: `options` is [[value, label], …]. */
export function chips(label, options, onChange) {
  const counts = new Map(options.map(([value]) => [value, h('span.chip-count', { 'aria-hidden': 'true' })]));
  const buttons = options.map(([value, text]) =>
    h('button.chip', { type: 'button', 'data-value': value, 'aria-pressed': 'false', onclick: () => onChange(value) },
      h('span.chip-label', {}, text), counts.get(value)));
  return {
    element: h('div.chips', { role: 'group', 'aria-label': label }, buttons),
    set(value) { for (const button of buttons) button.setAttribute('aria-pressed', String(button.dataset.value === value)); },
    /** Shows the server's formatted counts ("2,979") on the chips they name. */
    setCounts(formatted) {
      for (const [value, text] of Object.entries(formatted)) {
        const count = counts.get(value);
        if (!count) continue;
        count.textContent = text;
        count.parentElement.setAttribute('aria-label', `${count.previousSibling.textContent}, ${text}`);
      }
    },
  };
}

/** A labelled select: `options` is [[value, label], …]. */
export function picker(label, options, onChange) {
  const select = h('select', { onchange: () => onChange(select.value) }, options.map(([value, text]) => h('option', { value }, text)));
  return { element: h('label.picker', {}, label, ' ', select), set(value) { select.value = value; } };
}

/** The direction of a sort as one button that flips it. */
export function direction(labels, onChange) {
  let current = 'asc';
  const button = h('button.direction', { type: 'button', onclick: () => onChange(current === 'asc' ? 'desc' : 'asc') });
  return {
    element: button,
    set(value) {
      current = value;
      button.textContent = value === 'asc' ? `↑ ${labels.asc}` : `↓ ${labels.desc}`;
      button.setAttribute('aria-label', `Order: ${value === 'asc' ? labels.asc : labels.desc}; activate to reverse`);
    },
  };
}

/** A badge, when `text` is given. */
export const badge = (text, kind = '') => (text ? h(`span.badge${kind ? `.${kind}` : ''}`, {}, text) : null);
