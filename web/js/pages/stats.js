// Live server figures: polls GET /metrics (Prometheus text, parsed by ../metrics.js) every two
// seconds. Counters and gauges are summed over their label sets; counters also get a rate over
// the last interval; histograms are shown as the rate of observations and quantiles of the last
// interval (since the server started, on the first poll), never as summed buckets.
import {getText} from '../api.js';
import {h, mount} from '../dom.js';
import {drawBars} from '../chart.js';
import {formatNumber, histogram, histogramDelta, parseMetrics, quantile, total} from '../metrics.js';

const POLL_MS = 2000;
const HISTORY = 60;
const DURATION = 'basalt_http_request_duration_seconds';

const FIGURES = [
  ['basalt_http_requests_total', 'requests'],
  ['basalt_http_request_errors_total', 'errors'],
  ['basalt_http_open_connections', 'open connections'],
  ['basalt_rest_open_scanners', 'open REST scanners'],
  ['basalt_fanout_pending_jobs', 'fan-out jobs pending'],
  ['basalt_fanout_jobs_finished_total', 'fan-out jobs done'],
];

// What a histogram shows: observations per second and quantiles of the interval `delta`.
function histogramText(delta, seconds) {
  const rate = seconds ? `${formatNumber(delta.count / seconds)}/s, ` : '';
  const q = (p) => formatNumber(quantile(p, delta));
  return `${rate}p50 ${q(0.5)}, p90 ${q(0.9)}, p99 ${q(0.99)}` +
         (delta.count > 0 ? `, mean ${formatNumber(delta.sum / delta.count)}` : '');
}

export function statsPage(main) {
  const figures = h('div', {class: 'card stats', id: 'server-figures'},
    FIGURES.map(([name, label]) => h('div', {class: 'stat'},
      h('b', {'data-metric': name}, '–'), h('span', {class: 'muted'}, label))),
    h('div', {class: 'stat'}, h('b', {id: 'latency-p50'}, '–'),
      h('span', {class: 'muted'}, 'request time p50 (s)')),
    h('div', {class: 'stat'}, h('b', {id: 'latency-p99'}, '–'),
      h('span', {class: 'muted'}, 'request time p99 (s)')));
  const canvas = h('canvas', {class: 'chart', id: 'rate-chart', width: 600, height: 260});
  const all = h('table', {class: 'grid', id: 'metrics-table'});
  const updated = h('p', {class: 'muted', id: 'stats-updated'});
  const problems = h('p', {class: 'error', id: 'metrics-problems'});
  mount(main, h('h1', null, 'Server'), figures, updated, problems,
        h('h2', null, 'Requests per second'), canvas, h('h2', null, 'All metrics'),
        h('div', {class: 'scroll'}, all));
  const history = [];
  let previous = null;  // {at, families}
  let polls = 0;
  let stopped = false;
  async function poll() {
    try {
      const {families, errors} = parseMetrics(await getText('/metrics'));
      const now = Date.now();
      const seconds = previous ? (now - previous.at) / 1000 : 0;
      for (const el of figures.querySelectorAll('[data-metric]')) {
        el.textContent = formatNumber(total(families, el.dataset.metric));
      }
      const durations = histogram(families, DURATION);
      const recent = durations &&
          histogramDelta(durations, previous && histogram(previous.families, DURATION));
      for (const [id, q] of [['latency-p50', 0.5], ['latency-p99', 0.99]]) {
        figures.querySelector('#' + id).textContent = recent ? formatNumber(quantile(q, recent)) : '–';
      }
      const requests = total(families, 'basalt_http_requests_total') || 0;
      if (previous) {
        const before = total(previous.families, 'basalt_http_requests_total') || 0;
        history.push({x: now, y: Math.max(0, (requests - before) / seconds)});
        if (history.length > HISTORY) history.shift();
      }
      drawBars(canvas, history, {label: 'requests/s'});
      mount(all, h('thead', null, h('tr', null, ['metric', 'type', 'series', 'value', 'rate or recent']
        .map((t) => h('th', null, t)))),
        h('tbody', null, [...families.values()].sort((a, b) => a.name.localeCompare(b.name))
          .filter((f) => f.samples.length > 0)
          .map((f) => metricRow(f, families, previous, seconds))));
      problems.textContent = errors.length ? 'Unreadable lines in /metrics: ' + errors.join('; ') : '';
      previous = {at: now, families};
      updated.textContent = 'Updated ' + new Date(now).toLocaleTimeString();
      figures.dataset.polls = String(++polls);
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

// One family of the "All metrics" table.
function metricRow(f, families, previous, seconds) {
  let value;
  let recent = '';
  if (f.type === 'histogram') {
    const now = histogram(families, f.name);
    value = `${formatNumber(now.count)} observations`;
    const before = previous && histogram(previous.families, f.name);
    recent = histogramText(histogramDelta(now, before), before ? seconds : 0);
  } else if (f.type === 'summary') {
    const count = f.samples.filter((s) => s.name === f.name + '_count')
        .reduce((sum, s) => sum + s.value, 0);
    value = `${formatNumber(count)} observations`;
  } else {
    value = formatNumber(total(families, f.name));
    const before = previous && total(previous.families, f.name);
    if (f.type === 'counter' && before !== undefined && seconds > 0) {
      recent = `${formatNumber((total(families, f.name) - before) / seconds)}/s`;
    }
  }
  return h('tr', {'data-family': f.name}, h('td', null, f.name), h('td', null, f.type),
           h('td', {class: 'series'}, String(seriesCount(f))), h('td', {class: 'value'}, value),
           h('td', {class: 'recent'}, recent));
}

// How many label sets a family has (a histogram's buckets are one series).
function seriesCount(f) {
  const keys = new Set();
  for (const s of f.samples) {
    const {le, quantile: q, ...rest} = s.labels;
    keys.add(JSON.stringify(Object.entries(rest).sort()));
  }
  return keys.size;
}
