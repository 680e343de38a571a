// Profile pages: a user's profile, posts and follow button; their following / followers lists;
// editing one's own display name and bio.
import {api, seg} from '../api.js';
import {h, mount, routeLink, toast, formValues} from '../dom.js';
import {session} from '../session.js';
import {postCard, pagedList} from './posts.js';
import {userRow} from './people.js';

function header(profile) {
  const name = profile.display_name || profile.user;
  return h('div', {class: 'card', id: 'profile'},
    h('h1', {id: 'profile-name'}, name),
    h('p', {class: 'muted'}, '@', h('span', {id: 'profile-user'}, profile.user)),
    profile.bio ? h('p', {id: 'profile-bio'}, profile.bio) : null,
    h('div', {class: 'tabs'},
      h('a', {href: '#/u/' + seg(profile.user) + '/following', id: 'following-link'},
        h('b', {id: 'following-count'}, String(profile.following)), ' following'),
      h('a', {href: '#/u/' + seg(profile.user) + '/followers', id: 'followers-link'},
        h('b', {id: 'followers-count'}, String(profile.followers)),
        profile.followers === 1 ? ' follower' : ' followers')));
}

function followButton(profile, onChange) {
  if (!session.me || session.me === profile.user) return null;
  const following = Boolean(profile.followed_by_me);
  return h('button', {id: 'follow-button', class: following ? 'secondary' : null,
                      'data-following': following ? '1' : '0', onclick: async (event) => {
    event.target.disabled = true;
    try {
      await api(following ? 'DELETE' : 'POST', '/users/' + seg(profile.user) + '/follow');
      toast(following ? 'Unfollowed ' + profile.user : 'Following ' + profile.user);
      await onChange();
    } catch (e) {
      toast(e.message, true);
      event.target.disabled = false;
    }
  }}, following ? 'Unfollow' : 'Follow');
}

function editForm(profile, onSaved) {
  const form = h('form', {class: 'stack card', id: 'profile-form'},
    h('label', null, 'Display name',
      h('input', {name: 'display_name', value: profile.display_name || '', maxlength: 64})),
    h('label', null, 'Bio', h('textarea', {name: 'bio', value: profile.bio || '', maxlength: 280})),
    h('button', {type: 'submit'}, 'Save profile'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      await api('PUT', '/users/' + seg(profile.user), formValues(form));
      toast('Profile saved');
      await onSaved();
    } catch (e) {
      toast(e.message, true);
    }
  });
  return h('details', null, h('summary', null, 'Edit profile'), form);
}

export async function profilePage(main, user) {
  async function load() {
    const profile = await api('GET', '/users/' + seg(user));
    const posts = h('section', {id: 'user-posts'});
    mount(main, header(profile), followButton(profile, load),
          session.me === profile.user ? editForm(profile, load) : null,
          h('h2', null, 'Posts'), posts);
    await pagedList(posts, '/users/' + seg(user) + '/posts', (post) => postCard(post),
                    {empty: 'No posts yet.'});
  }
  await load();
}

export async function profileListPage(main, user, which) {
  const list = h('section', {id: which + '-list'});
  mount(main,
    h('h1', null, which === 'following' ? 'Followed by ' : 'Followers of ', routeLink(user, 'u', user)),
    h('div', {class: 'tabs'},
      h('a', {href: '#/u/' + seg(user) + '/following'}, 'Following'),
      h('a', {href: '#/u/' + seg(user) + '/followers'}, 'Followers')),
    list);
  await pagedList(list, '/users/' + seg(user) + '/' + which, (name) => userRow(name),
                  {limit: 20, empty: which === 'following' ? 'Follows nobody yet.' : 'No followers yet.'});
}
