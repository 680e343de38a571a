// Home: compose a post and read one's home timeline (GET /api/v1/timeline), newest first.
import {api} from '../api.js';
import {h, mount, toast} from '../dom.js';
import {postCard, pagedList} from './posts.js';

// The server's rules for a post (docs/api-v1.md): at most this many characters, counted as
// Unicode code points ([...text]), and not only white space (Unicode's White_Space and U+FEFF:
// JavaScript's \s and U+0085). No maxlength on the text box: it counts UTF-16 units and cuts a
// paste silently.
const MAX_POST_CHARS = 1000;
const BLANK = /^[\s\u0085]*$/u;

// What keeps `value` from being posted, or '' when nothing does.
function postTextProblem(value) {
  const n = [...value].length;
  if (BLANK.test(value)) return 'Write something: a post cannot be empty or only white space.';
  if (n > MAX_POST_CHARS) return `A post is at most ${MAX_POST_CHARS} characters; this one has ${n}.`;
  return '';
}

export async function homePage(main) {
  const text = h('textarea', {name: 'text', id: 'compose-text', required: true,
                              placeholder: 'What is happening?', 'aria-describedby': 'compose-count'});
  const count = h('span', {id: 'compose-count', class: 'muted'});
  const error = h('span', {id: 'compose-error', class: 'error', role: 'alert'});
  const compose = h('form', {class: 'card', id: 'compose-form'}, text,
    h('div', {class: 'post-actions'}, error, count, h('button', {type: 'submit'}, 'Post')));
  // The live counter: characters typed out of the limit, red past it.
  const counted = () => {
    const n = [...text.value].length;
    count.textContent = `${n} / ${MAX_POST_CHARS}`;
    count.classList.toggle('error', n > MAX_POST_CHARS);
    count.classList.toggle('muted', n <= MAX_POST_CHARS);
    if (!postTextProblem(text.value)) error.textContent = '';
  };
  text.addEventListener('input', counted);
  counted();
  const feed = h('section', {id: 'feed'});
  mount(main, h('h1', null, 'Home'), compose, h('div', {class: 'tabs'},
    h('button', {class: 'secondary', id: 'refresh-feed', onclick: load}, 'Refresh'),
    h('a', {href: '#/people', id: 'find-people'}, 'Find people to follow')), feed);

  async function load() {
    await pagedList(feed, '/timeline', (post) => postCard(post),
                    {empty: 'Your timeline is empty: find people to follow (above) or post something.'});
  }
  compose.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = postTextProblem(text.value);
    if (error.textContent) return;
    const button = compose.querySelector('button');
    button.disabled = true;
    try {
      const post = await api('POST', '/posts', {text: text.value});
      text.value = '';
      counted();
      toast('Posted');
      // The server's timeline holds one's own posts at once; prepending saves a reload.
      const items = feed.querySelector('.items');
      if (items) items.prepend(postCard(post));
      const status = feed.querySelector('.list-status');
      if (status) status.textContent = '';
    } catch (e) {
      toast(e.message, true);
    } finally {
      button.disabled = false;
    }
  });
  await load();
}
