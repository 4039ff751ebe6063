// The page: which screen the URL names (#/orders?filter=pending), the locale and time zone
// the server formats for, and the live indicator. Rows arrive display-ready; nothing here
// formats a date, a sum or a label.
import { listScreen } from './screen.js';
import { showSignIn } from './signin.js';

// The screens the server lists in the navigation (WebApp.screens), each from its own module,
// which exports it under the screen's name.
const names = [...document.querySelectorAll('nav a[data-screen]')].map((link) => link.dataset.screen);
const configs = Object.fromEntries(
  await Promise.all(names.map(async (name) => [name, (await import(`./${name}.js`))[name]])),
);
const main = document.getElementById('screen');
// Sticky section headers sit just under the sticky bar, however tall it wraps.
const bar = document.querySelector('.bar');
new ResizeObserver(() => document.documentElement.style.setProperty('--bar-height', `${bar.offsetHeight}px`)).observe(bar);
const indicator = document.getElementById('live');
const localePicker = document.getElementById('locale');
const zonePicker = document.getElementById('tz');
const announcer = Object.assign(document.createElement('p'), { className: 'visually-hidden' });
announcer.setAttribute('aria-live', 'polite');
document.body.append(announcer);

const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const display = {
  locale: localStorage.getItem('listservice.locale') || navigator.language || 'en-US',
  tz: localStorage.getItem('listservice.tz') || browserZone,
};
const liveStates = new Map();
let current = null;

const app = {
  assets: main.dataset.assets,
  display: () => ({ ...display }),
  /** Puts the criteria that differ from their defaults in the URL, without a new history entry. */
  navigate(name, criteria, defaults) {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(criteria)) if (value !== defaults[key]) query.set(key, value);
    const text = query.toString();
    history.replaceState(null, '', `#/${name}${text ? `?${text}` : ''}`);
  },
  /** One list's stream state (null once closed); the indicator shows the worst of them. */
  setLive(key, state) {
    if (state === null) liveStates.delete(key); else liveStates.set(key, state);
    const states = [...liveStates.values()];
    const shown = ['refused', 'reconnecting', 'connecting', 'live'].find((s) => states.includes(s)) ?? 'connecting';
    indicator.dataset.state = shown;
    indicator.textContent = { live: 'Live', connecting: 'Connecting…', reconnecting: 'Reconnecting…', refused: 'Not live' }[shown];
  },
  announce(text) { announcer.textContent = text; },
};

function fillPickers() {
  const locales = [...new Set([display.locale, 'en-US', 'en-GB', 'de-DE', 'fr-FR', 'es-ES', 'ja-JP'])];
  localePicker.replaceChildren(...locales.map((tag) => {
    let name = tag;
    try { name = `${new Intl.DisplayNames([tag], { type: 'language' }).of(tag)} (${tag})`; } catch { /* shown as the tag */ }
    const option = new Option(name, tag);
    option.lang = tag;  // each language named in itself
    return option;
  }));
  const zones = Intl.supportedValuesOf ? Intl.supportedValuesOf('timeZone') : [];
  zonePicker.replaceChildren(...[...new Set([display.tz, 'UTC', ...zones])].map((zone) => new Option(zone.replaceAll('_', ' '), zone)));
  localePicker.value = display.locale;
  zonePicker.value = display.tz;
  const changed = (key, picker) => () => {
    display[key] = picker.value;
    localStorage.setItem(`listservice.${key}`, picker.value);
    current?.screen.redisplay();
  };
  localePicker.addEventListener('change', changed('locale', localePicker));
  zonePicker.addEventListener('change', changed('tz', zonePicker));
}

/** Shows the screen the URL names, with its criteria. */
function route() {
  const [path, query = ''] = location.hash.replace(/^#\/?/, '').split('?');
  const name = configs[path] ? path : names[0];
  if (current?.name !== name) {
    current?.screen.close();
    const screen = listScreen(configs[name], app);
    main.replaceChildren(screen.element);
    current = { name, screen };
    document.title = `${configs[name].title} · ListService`;
    for (const link of document.querySelectorAll('nav a')) {
      if (link.dataset.screen === name) link.setAttribute('aria-current', 'page'); else link.removeAttribute('aria-current');
    }
  }
  current.screen.show(Object.fromEntries(new URLSearchParams(query)));
}

window.addEventListener('hashchange', route);
route();
// The pickers (some 400 time zones) are filled once the first list is on its way.
setTimeout(fillPickers);
// Signing in or out shows the same screen for the new caller: its lists start over.
showSignIn(document.getElementById('signin'), () => {
  current?.screen.close();
  current = null;
  route();
});
