// Live server figures: polls GET /metrics (Prometheus text) every two seconds and shows the
// totals and the request rate.
import {getText} from '../api.js';
import {h, mount} from '../dom.js';
import {drawBars} from '../chart.js';

const POLL_MS = 2000;
const HISTORY = 60;

// Sums every sample of each metric name (over all label sets).
export function parseMetrics(text) {
  const sums = new Map();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (!m) continue;
    const value = Number(m[3]);
    if (!Number.isFinite(value)) continue;
    sums.set(m[1], (sums.get(m[1]) || 0) + value);
  }
  return sums;
}

const FIGURES = [
  ['basalt_http_requests_total', 'requests'],
  ['basalt_http_request_errors_total', 'errors'],
  ['basalt_http_open_connections', 'open connections'],
  ['basalt_rest_open_scanners', 'open REST scanners'],
  ['basalt_fanout_pending_jobs', 'fan-out jobs pending'],
  ['basalt_fanout_jobs_finished_total', 'fan-out jobs done'],
];

export function statsPage(main) {
  const figures = h('div', {class: 'card stats', id: 'server-figures'},
    FIGURES.map(([name, label]) => h('div', {class: 'stat'},
      h('b', {'data-metric': name}, '–'), h('span', {class: 'muted'}, label))));
  const canvas = h('canvas', {class: 'chart', id: 'rate-chart', width: 600, height: 260});
  const all = h('table', {class: 'grid', id: 'metrics-table'});
  const updated = h('p', {class: 'muted', id: 'stats-updated'});
  mount(main, h('h1', null, 'Server'), figures, updated,
        h('h2', null, 'Requests per second'), canvas, h('h2', null, 'All metrics'), all);
  const history = [];
  let previous = null;
  let stopped = false;
  async function poll() {
    try {
      const sums = parseMetrics(await getText('/metrics'));
      for (const el of figures.querySelectorAll('[data-metric]')) {
        const v = sums.get(el.dataset.metric);
        el.textContent = v === undefined ? '–' : String(v);
      }
      const now = Date.now();
      const total = sums.get('basalt_http_requests_total') || 0;
      if (previous) {
        history.push({x: now, y: Math.max(0, (total - previous.total) * 1000 / (now - previous.at))});
        if (history.length > HISTORY) history.shift();
      }
      previous = {at: now, total};
      drawBars(canvas, history, {label: 'requests/s'});
      mount(all, h('tbody', null, [...sums.entries()].sort().map(([k, v]) =>
        h('tr', null, h('td', null, k), h('td', null, String(v))))));
      updated.textContent = 'Updated ' + new Date(now).toLocaleTimeString();
    } catch (e) {
      updated.textContent = 'Could not read /metrics: ' + e.message;
    }
    if (!stopped) timer = setTimeout(poll, POLL_MS);
  }
  let timer = null;
  poll();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
