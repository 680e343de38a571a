// Click counters: record a click on an item (POST /api/v1/clicks/{item}), its counts (total,
// last hour, rolling week), a chart of the last hour per minute (.../series) and the top items;
// and, from the hourly sketches, its distinct visitors (.../visitors) and the estimated top
// items (/clicks/top/approx), both over the whole hours the last hour overlaps.
import {api, seg} from '../api.js';
import {h, mount, toast} from '../dom.js';
import {session} from '../session.js';
import {drawBars} from '../chart.js';

const HOUR_MS = 3600 * 1000;
const MINUTE_MS = 60 * 1000;

function stat(id, label) {
  return h('div', {class: 'stat'}, h('b', {id}, '–'), h('span', {class: 'muted'}, label));
}

export async function clicksPage(main) {
  const item = h('input', {name: 'item', id: 'click-item', required: true, maxlength: 200,
                           value: sessionStorage.getItem('basalt.clickItem') || 'item1'});
  const canvas = h('canvas', {class: 'chart', id: 'click-chart', width: 600, height: 260});
  const top = h('ol', {id: 'click-top'});
  const heavy = h('ol', {id: 'click-heavy'});
  const heavyNote = h('p', {class: 'muted', id: 'click-heavy-note'});
  const form = h('form', {class: 'inline card', id: 'click-form'},
    h('label', null, 'Item', item),
    h('button', {type: 'submit', id: 'show-clicks', class: 'secondary'}, 'Show'),
    session.me ? h('button', {type: 'button', id: 'click-button', onclick: click}, 'Click it') :
                 h('span', {class: 'muted'}, 'Log in to record clicks.'));
  mount(main, h('h1', null, 'Clicks'), form,
    h('div', {class: 'card stats'}, stat('click-total', 'all time'),
      stat('click-hour', 'last hour'), stat('click-week', '7 days, as of the last half-hour refresh'),
      stat('click-visitors', 'distinct visitors, in the hours of the last hour (±1.6%)')),
    h('h2', null, 'Last hour, per minute'), canvas,
    h('h2', null, 'Top items, last hour'), top,
    h('h2', null, 'Top items, estimated from hourly sketches'), heavyNote, heavy);

  // Answers to an earlier show() that arrive after a later one's are dropped, so the page
  // never shows another item's figures than the one asked for last.
  let latestShow = 0;
  async function show() {
    const name = item.value.trim();
    if (!name) return;
    const call = ++latestShow;
    sessionStorage.setItem('basalt.clickItem', name);
    const now = Date.now();
    const to = Math.ceil((now + 1) / MINUTE_MS) * MINUTE_MS;
    const from = to - HOUR_MS;
    const range = '?from_ms=' + from + '&to_ms=' + to;
    try {
      const [counts, series, best, visitors, approx] = await Promise.all([
        api('GET', '/clicks/' + seg(name) + range),
        api('GET', '/clicks/' + seg(name) + '/series' + range + '&step_ms=' + MINUTE_MS),
        api('GET', '/clicks/top' + range + '&k=10'),
        api('GET', '/clicks/' + seg(name) + '/visitors' + range),
        api('GET', '/clicks/top/approx' + range + '&k=10'),
      ]);
      if (call !== latestShow) return;
      document.getElementById('click-visitors').textContent = String(visitors.visitors);
      document.getElementById('click-total').textContent = String(counts.total);
      document.getElementById('click-hour').textContent = String(counts.count);
      document.getElementById('click-week').textContent = String(counts.week);
      drawBars(canvas, series.points.map((p) => ({x: p.t_ms, y: p.count})),
               {label: 'clicks on ' + name});
      // Each top item opens its own counts and chart.
      mount(top, best.items.map((it) => h('li', null,
        h('a', {href: '#/clicks', class: 'top-item', 'data-item': it.item, onclick: (event) => {
          event.preventDefault();
          item.value = it.item;
          sessionStorage.setItem('basalt.clickItem', it.item);
          show();
        }}, it.item),
        ' — ', String(it.count))));
      const hour = (ms) => new Date(ms).toISOString().slice(11, 16);
      heavyNote.dataset.bound = String(approx.error_bound);
      heavyNote.textContent = `${approx.clicks} clicks from ${hour(approx.from_ms)} to ` +
        `${hour(approx.to_ms)} UTC; each count is at most ${approx.error_bound} above the true ` +
        'count (98% of the time), never below it.';
      mount(heavy, approx.items.map((it) => h('li', null,
        h('span', {class: 'heavy-item', 'data-item': it.item}, it.item), ' — ',
        h('span', {class: 'heavy-count'}, String(it.count)))));
    } catch (e) {
      toast(e.message, true);
    }
  }
  async function click() {
    const name = item.value.trim();
    if (!name) return;
    try {
      await api('POST', '/clicks/' + seg(name), {n: 1});
      await show();
    } catch (e) {
      toast(e.message, true);
    }
  }
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    show();
  });
  await show();
}
