// A post as a card, and a paged list of posts with "Load more" (cursor paging).
import {api, seg} from '../api.js';
import {h, mount, formatTime, routeLink, toast} from '../dom.js';
import {session} from '../session.js';

export function postCard(post, onDeleted) {
  const mine = session.me !== null && post.author === session.me;
  const card = h('article', {class: 'card post', 'data-id': post.id},
    h('div', {class: 'post-head'},
      h('span', {class: 'post-author'}, routeLink(post.author, 'u', post.author)),
      h('time', {class: 'muted', datetime: new Date(Number(post.timestamp_ms)).toISOString()},
        formatTime(post.timestamp_ms))),
    h('div', {class: 'post-text'}, post.text),
    mine ? h('div', {class: 'post-actions'},
      h('button', {class: 'danger post-delete', onclick: async () => {
        if (!confirm('Delete this post?')) return;
        try {
          await api('DELETE', '/posts/' + seg(post.id));
          card.remove();
          if (onDeleted) onDeleted(post);
          toast('Post deleted');
        } catch (e) {
          toast(e.message, true);
        }
      }}, 'Delete')) : null);
  return card;
}

// Fills `container` with the pages of `path` (an /api/v1 list of posts), `limit` at a time,
// with a "Load more" button while next_cursor is not null.
export async function pagedList(container, path, renderItem, {limit = 10, empty = 'Nothing yet.'} = {}) {
  const list = h('div', {class: 'items'});
  const more = h('button', {class: 'secondary load-more', hidden: true}, 'Load more');
  const status = h('p', {class: 'muted list-status'});
  mount(container, list, status, more);
  let cursor = null;
  let count = 0;
  async function loadPage() {
    more.disabled = true;
    const sep = path.includes('?') ? '&' : '?';
    const query = sep + 'limit=' + limit + (cursor ? '&cursor=' + encodeURIComponent(cursor) : '');
    try {
      const page = await api('GET', path + query);
      for (const item of page.items) {
        list.appendChild(renderItem(item));
        count++;
      }
      cursor = page.next_cursor || null;
      more.hidden = cursor === null;
      status.textContent = count === 0 ? empty : '';
    } catch (e) {
      status.textContent = e.message;
      status.className = 'error list-status';
    } finally {
      more.disabled = false;
      container.dataset.loaded = String(count);
    }
  }
  delete container.dataset.loaded;
  more.addEventListener('click', loadPage);
  await loadPage();
}
