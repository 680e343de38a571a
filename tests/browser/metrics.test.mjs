// The Server page's Prometheus text parser and arithmetic (web/js/metrics.js), under plain
// Node: no browser, no server. Run by CTest with the browser tests.
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {formatNumber, histogram, histogramDelta, parseMetrics, parseSampleLine, quantile, total}
  from '../../web/js/metrics.js';

describe('parseSampleLine', () => {
  test('label values may hold any character', () => {
    const s = parseSampleLine(
        'basalt_http_requests_total{route="/api/v1/users/{user}",method="GET",status="2xx"} 7');
    assert.deepEqual(s, {name: 'basalt_http_requests_total', value: 7,
                         labels: {route: '/api/v1/users/{user}', method: 'GET', status: '2xx'}});
    const odd = parseSampleLine(
        'm{a="}{,= \\"quoted\\" back\\\\slash\\\\",b="line\\nbreak",c="",} 1.5e3 1700000000000');
    assert.deepEqual(odd.labels, {a: '}{,= "quoted" back\\slash\\', b: 'line\nbreak', c: ''});
    assert.equal(odd.value, 1500);
    assert.equal(odd.timestamp, 1700000000000);
  });

  test('values: integers, floats, NaN and infinities; blanks between tokens', () => {
    assert.equal(parseSampleLine('x 0').value, 0);
    assert.equal(parseSampleLine('x\t-2.5').value, -2.5);
    assert.equal(parseSampleLine('x +Inf').value, Infinity);
    assert.equal(parseSampleLine('x -Inf').value, -Infinity);
    assert.ok(Number.isNaN(parseSampleLine('x NaN').value));
    assert.equal(parseSampleLine('x { a = "1" , b="2" }  3').value, 3);
  });

  test('malformed lines are errors that say why', () => {
    for (const [line, why] of [['{a="1"} 1', /no metric name/], ['x{a=1} 1', /not quoted/],
                               ['x{a="1} 1', /unterminated/], ['x{a="1"', /unterminated|expected/],
                               ['x{a="1" b="2"} 1', /expected , or }/], ['x', /expected a value/],
                               ['x one', /bad value/], ['x 1 2 3', /expected a value/],
                               ['x{a="1",a="2"} 1', /twice/], ['x 1 soon', /bad timestamp/]]) {
      assert.throws(() => parseSampleLine(line), why, line);
    }
  });
});

const EXPOSITION = `# HELP basalt_http_requests_total HTTP requests served, by route.
# TYPE basalt_http_requests_total counter
basalt_http_requests_total{route="/api/v1/users/{user}",method="GET",status="2xx"} 5
basalt_http_requests_total{route="/metrics",method="GET",status="2xx"} 2
basalt_http_requests_total{route="/{table}/{row}",method="PUT",status="4xx"} 1
# HELP basalt_x_seconds Time \\\\ taken.\\nSecond line.
# TYPE basalt_x_seconds histogram
basalt_x_seconds_bucket{route="/a/{b}",le="0.1"} 1
basalt_x_seconds_bucket{route="/a/{b}",le="1"} 3
basalt_x_seconds_bucket{route="/a/{b}",le="+Inf"} 4
basalt_x_seconds_sum{route="/a/{b}"} 3.5
basalt_x_seconds_count{route="/a/{b}"} 4
basalt_x_seconds_bucket{route="/c",le="0.1"} 3
basalt_x_seconds_bucket{route="/c",le="1"} 4
basalt_x_seconds_bucket{route="/c",le="+Inf"} 4
basalt_x_seconds_sum{route="/c"} 0.5
basalt_x_seconds_count{route="/c"} 4
# a comment
basalt_open 3
this is not a sample
`;

describe('parseMetrics', () => {
  test('families with their type, help and samples; nothing dropped in silence', () => {
    const {families, errors} = parseMetrics(EXPOSITION);
    assert.deepEqual([...families.keys()],
                     ['basalt_http_requests_total', 'basalt_x_seconds', 'basalt_open']);
    assert.equal(families.get('basalt_http_requests_total').type, 'counter');
    assert.equal(families.get('basalt_x_seconds').help, 'Time \\ taken.\nSecond line.');
    assert.equal(families.get('basalt_x_seconds').samples.length, 10);
    assert.equal(families.get('basalt_open').type, 'untyped');
    assert.deepEqual(errors, ['line 20: expected a value']);
    // Every series counts, those whose labels hold braces too.
    assert.equal(total(families, 'basalt_http_requests_total'), 8);
    assert.equal(total(families, 'basalt_open'), 3);
    assert.equal(total(families, 'nothing'), undefined);
  });

  test('a histogram is summed per bucket over its label sets', () => {
    const {families} = parseMetrics(EXPOSITION);
    assert.deepEqual(histogram(families, 'basalt_x_seconds'),
                     {count: 8, sum: 4, buckets: [[0.1, 4], [1, 7], [Infinity, 8]]});
  });
});

describe('quantiles and rates', () => {
  const h = {count: 8, sum: 4, buckets: [[0.1, 4], [1, 7], [Infinity, 8]]};
  test('interpolated within the bucket, as Prometheus histogram_quantile', () => {
    assert.equal(quantile(0.5, h), 0.1);              // rank 4: the top of the first bucket
    assert.equal(quantile(0.25, h), 0.05);            // rank 2 of 4 in [0, 0.1]
    assert.ok(Math.abs(quantile(0.625, h) - 0.4) < 1e-12);  // rank 5: 1/3 into (0.1, 1]
    assert.equal(quantile(0.99, h), 1);               // in +Inf: the highest finite bound
    assert.ok(Number.isNaN(quantile(0.5, {count: 0, sum: 0, buckets: [[1, 0], [Infinity, 0]]})));
  });

  test('the last interval is the difference of two polls', () => {
    const before = {count: 3, sum: 1, buckets: [[0.1, 3], [1, 3], [Infinity, 3]]};
    assert.deepEqual(histogramDelta(h, before),
                     {count: 5, sum: 3, buckets: [[0.1, 1], [1, 4], [Infinity, 5]]});
    assert.equal(histogramDelta(h, undefined), h);
  });

  test('numbers for people', () => {
    assert.equal(formatNumber(288), '288');
    assert.equal(formatNumber(0.012345), '0.0123');
    assert.equal(formatNumber(undefined), '–');
    assert.equal(formatNumber(Infinity), '+Inf');
  });
});
