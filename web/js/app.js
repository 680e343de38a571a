// The single-page app: hash routes (#/..., so the server serves only / and /ui/...), the
// navigation bar, and one render function per page in pages/.
import {api} from './api.js';
import {clearToast, h, mount, toast} from './dom.js';
import {session, refreshSession} from './session.js';
import {loginPage, signupPage} from './pages/auth.js';
import {homePage} from './pages/home.js';
import {profilePage, profileListPage} from './pages/profile.js';
import {peoplePage} from './pages/people.js';
import {activityPage} from './pages/activity.js';
import {clicksPage} from './pages/clicks.js';
import {adminPage, adminTablePage} from './pages/admin.js';
import {statsPage} from './pages/stats.js';

// [pattern, page, needs a session]. Captured groups are passed decoded.
const routes = [
  [/^\/?$/, homePage, true],
  [/^\/login$/, loginPage, false],
  [/^\/signup$/, signupPage, false],
  [/^\/people$/, peoplePage, false],
  [/^\/u\/([^/]+)$/, profilePage, false],
  [/^\/u\/([^/]+)\/(following|followers)$/, profileListPage, false],
  [/^\/activity$/, activityPage, true],
  [/^\/clicks$/, clicksPage, false],
  [/^\/admin$/, adminPage, false],
  [/^\/admin\/table\/([^/]+)$/, adminTablePage, false],
  [/^\/admin\/stats$/, statsPage, false],
];

// A page may return a function to run when the user leaves it (to stop polling).
let leave = null;

function renderNav() {
  const nav = document.getElementById('nav');
  const links = session.me
    ? [['#/', 'Home'], ['#/people', 'People'], ['#/u/' + encodeURIComponent(session.me), 'Profile'],
       ['#/activity', 'Activity']]
    : [['#/login', 'Log in'], ['#/signup', 'Sign up'], ['#/people', 'People']];
  links.push(['#/clicks', 'Clicks'], ['#/admin', 'Admin'], ['#/admin/stats', 'Server']);
  const current = location.hash || '#/';
  mount(nav, links.map(([href, text]) =>
    h('a', {href, class: current === href ? 'active' : null}, text)));
  const who = document.getElementById('whoami');
  if (session.me) {
    mount(who, 'Signed in as ', h('b', {id: 'whoami-name'}, session.me), ' ',
          h('button', {class: 'secondary', id: 'logout', onclick: logout}, 'Log out'));
  } else {
    mount(who);
  }
}

async function logout() {
  try {
    await api('POST', '/logout');
  } catch (e) {
    toast(e.message, true);
  }
  session.me = null;
  if (location.hash === '#/login') render();
  else location.hash = '#/login';
}

export async function render() {
  if (leave) {
    try { leave(); } catch (e) { /* a page's clean-up must not stop navigation */ }
    leave = null;
  }
  renderNav();
  clearToast();  // a message about the page left behind
  const main = document.getElementById('main');
  const path = (location.hash || '#/').slice(1);
  for (const [pattern, page, needsSession] of routes) {
    const m = pattern.exec(path);
    if (!m) continue;
    if (needsSession && !session.me) {
      location.hash = '#/login';
      return;
    }
    let args;
    try {
      args = m.slice(1).map(decodeURIComponent);
    } catch (e) {
      break;
    }
    // Each visit renders into its own element, so a slow page that finishes after the user has
    // moved on writes into a detached node instead of over the current page.
    const view = h('div', {class: 'view'}, h('p', {class: 'muted'}, 'Loading…'));
    mount(main, view);
    try {
      const cleanup = (await page(view, ...args)) || null;
      if (view.isConnected) leave = cleanup;
      else if (cleanup) cleanup();
    } catch (e) {
      if (e.status === 401 && needsSession) {
        // The session ended (expired, or logged out elsewhere).
        await refreshSession().catch(() => {});
        if (!session.me) {
          location.hash = '#/login';
          return;
        }
      }
      mount(view, h('h1', null, 'Something went wrong'), h('p', {class: 'error'}, e.message));
    }
    return;
  }
  mount(main, h('h1', null, 'Not found'), h('p', null, 'No page at ', h('code', null, path)));
}

// Pages call this after logging in or out.
export async function sessionChanged(hash) {
  await refreshSession();
  if (location.hash === hash) render();
  else location.hash = hash;
}

window.addEventListener('hashchange', render);
refreshSession()
  .catch((e) => toast('Could not reach the server: ' + e.message, true))
  .finally(() => {
    document.body.dataset.ready = '1';
    render();
  });
