// Home: compose a post and read one's home timeline (GET /api/v1/timeline), newest first.
import {api} from '../api.js';
import {h, mount, toast} from '../dom.js';
import {postCard, pagedList} from './posts.js';

export async function homePage(main) {
  const text = h('textarea', {name: 'text', id: 'compose-text', maxlength: 1000, required: true,
                              placeholder: 'What is happening?'});
  const compose = h('form', {class: 'card', id: 'compose-form'}, text,
    h('div', {class: 'post-actions'}, h('button', {type: 'submit'}, 'Post')));
  const feed = h('section', {id: 'feed'});
  mount(main, h('h1', null, 'Home'), compose, h('div', {class: 'tabs'},
    h('button', {class: 'secondary', id: 'refresh-feed', onclick: load}, 'Refresh')), feed);

  async function load() {
    await pagedList(feed, '/timeline', (post) => postCard(post),
                    {empty: 'Your timeline is empty: follow someone or post something.'});
  }
  compose.addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = compose.querySelector('button');
    button.disabled = true;
    try {
      const post = await api('POST', '/posts', {text: text.value});
      text.value = '';
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
