// Who the page is signed in as. Where the server offers demo identities (`/auth/demo`), a
// picker signs in as one of them; otherwise the page takes the token its embedding app hands
// over (`/#token=…`, see api.js). Signing in or out reloads the page's lists.
import { send, setToken, token } from './api.js';
import { h } from './view.js';

const identityKey = 'listservice.identity';

/** Fills `element` with the sign-in control; `changed()` runs after signing in or out. */
export async function showSignIn(element, changed) {
  let demo = null;
  try { demo = await send('GET', '/auth/demo'); } catch { /* no demo identities here */ }
  if (!demo) {
    element.replaceChildren(token() ? h('span.who', {}, 'Signed in') : '');
    return;
  }
  const choices = demo.identities;
  const picker = h('select', { 'aria-label': 'Signed in as' },
    new Option('Not signed in', ''),
    ...choices.map((who) => new Option(`${who.name} (${who.role})`, `${who.role}:${who.sub}`)));
  picker.value = token() ? sessionStorage.getItem(identityKey) ?? '' : '';
  picker.addEventListener('change', async () => {
    const choice = choices.find((who) => `${who.role}:${who.sub}` === picker.value);
    try {
      if (choice) {
        const signedIn = await send('POST', '/auth/demo', { body: { sub: choice.sub, role: choice.role } });
        setToken(signedIn.token);
        sessionStorage.setItem(identityKey, picker.value);
      } else {
        setToken(null);
        sessionStorage.removeItem(identityKey);
      }
    } catch (problem) {
      element.title = problem.message;
      return;
    }
    changed();
  });
  element.replaceChildren(h('label.who', {}, 'Signed in as ', picker));
}
