// Finding people: search accounts by name prefix (GET /api/v1/users?prefix=) and, when signed
// in, suggestions of whom to follow (GET /api/v1/suggestions). Every row has a follow button;
// the following / followers lists use the same rows (userRow).
import {api, seg} from '../api.js';
import {h, mount, routeLink, toast} from '../dom.js';
import {session} from '../session.js';
import {pagedList} from './posts.js';

// A follow / unfollow toggle for `user`, starting from `following`.
function followToggle(user, following) {
  const button = h('button', {class: 'follow-toggle' + (following ? ' secondary' : ''),
                              'data-user': user, 'data-following': following ? '1' : '0'});
  const show = () => {
    button.textContent = following ? 'Unfollow' : 'Follow';
    button.dataset.following = following ? '1' : '0';
    button.classList.toggle('secondary', following);
  };
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      await api(following ? 'DELETE' : 'POST', '/users/' + seg(user) + '/follow');
      following = !following;
      show();
      toast(following ? 'Following ' + user : 'Unfollowed ' + user);
    } catch (e) {
      toast(e.message, true);
    } finally {
      button.disabled = false;
    }
  });
  show();
  return button;
}

// A row for one account: its name (a link to the profile), a note, and, for a signed-in
// viewer other than the account, a follow button. `following` undefined: asked of the server.
export function userRow(user, {note = '', following} = {}) {
  const actions = h('span', {class: 'user-actions'});
  const row = h('div', {class: 'card user-item', 'data-user': user},
    h('span', {class: 'user-name'}, routeLink(user, 'u', user)),
    note ? h('span', {class: 'muted user-note'}, note) : null, actions);
  if (session.me && session.me !== user) {
    if (following !== undefined) {
      mount(actions, followToggle(user, following));
    } else {
      api('GET', '/users/' + seg(user))
        .then((profile) => mount(actions, followToggle(user, Boolean(profile.followed_by_me))))
        .catch(() => {});
    }
  }
  return row;
}

export async function peoplePage(main) {
  const query = h('input', {type: 'search', name: 'prefix', id: 'people-search',
                            placeholder: 'Name starts with…', autocomplete: 'off',
                            value: sessionStorage.getItem('basalt.peoplePrefix') || ''});
  const results = h('section', {id: 'people-results'});
  const suggestions = h('section', {id: 'suggestions'});
  const form = h('form', {class: 'inline card', id: 'people-form'},
    h('label', null, 'Find people', query), h('button', {type: 'submit'}, 'Search'));
  mount(main, h('h1', null, 'People'), form, results,
        session.me ? [h('h2', null, 'Suggested for you'), suggestions] :
                     h('p', {class: 'muted'}, 'Log in to see whom you might follow.'));

  async function search() {
    const prefix = query.value.trim().toLowerCase();
    sessionStorage.setItem('basalt.peoplePrefix', prefix);
    await pagedList(results, '/users?prefix=' + encodeURIComponent(prefix), (user) => userRow(user),
                    {limit: 20, empty: 'Nobody\'s name starts with "' + prefix + '".'});
  }
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    search();
  });
  const loads = [search()];
  if (session.me) {
    loads.push((async () => {
      try {
        const page = await api('GET', '/suggestions?limit=10');
        mount(suggestions, page.items.length === 0 ?
          h('p', {class: 'muted'}, 'No suggestions yet.') :
          page.items.map((s) => userRow(s.user, {
            following: false,
            note: s.followed_by_followees > 0 ?
              `followed by ${s.followed_by_followees} ${s.followed_by_followees === 1 ? 'person' : 'people'} you follow` :
              'popular here'})));
      } catch (e) {
        mount(suggestions, h('p', {class: 'error'}, e.message));
      } finally {
        suggestions.dataset.loaded = '1';
      }
    })());
  }
  await Promise.all(loads);
}
