// Prometheus text exposition format (version 0.0.4, what GET /metrics serves): a parser, and the
// arithmetic the Server page shows. Pure functions of strings and numbers, no DOM, so that they
// run under `node --test` too (tests/browser/metrics.test.mjs).
//
// The format, line by line:
//   # HELP <name> <text>            text escapes \\ and \n
//   # TYPE <name> counter|gauge|histogram|summary|untyped
//   <name>[{<label>="<value>",...[,]}] <value> [<timestamp ms>]
// Label values are quoted and may hold any character: \\, \" and \n are escapes, and `}`, `,`,
// `=` and spaces are plain characters. Values are Go floats: NaN, +Inf, -Inf included.

const NAME = /[a-zA-Z_:][a-zA-Z0-9_:]*/y;
const LABEL_NAME = /[a-zA-Z_][a-zA-Z0-9_]*/y;

function unescape(text, quoteToo) {
  return text.replace(quoteToo ? /\\(["\\n])/g : /\\([\\n])/g, (_, c) => (c === 'n' ? '\n' : c));
}

function parseValue(text) {
  if (text === '+Inf' || text === 'Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  if (text === 'NaN') return NaN;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) return undefined;
  return Number(text);
}

// One sample line as {name, labels, value, timestamp?}; throws Error saying what is wrong.
export function parseSampleLine(line) {
  let i = 0;
  const skipBlanks = () => { while (line[i] === ' ' || line[i] === '\t') i++; };
  const take = (re) => {
    re.lastIndex = i;
    const m = re.exec(line);
    if (!m) return null;
    i = re.lastIndex;
    return m[0];
  };
  const name = take(NAME);
  if (!name) throw new Error('no metric name');
  const labels = {};
  skipBlanks();
  if (line[i] === '{') {
    i++;
    for (;;) {
      skipBlanks();
      if (line[i] === '}') { i++; break; }
      const label = take(LABEL_NAME);
      if (!label) throw new Error(`bad label name at column ${i + 1}`);
      skipBlanks();
      if (line[i] !== '=') throw new Error(`no = after label ${label}`);
      i++;
      skipBlanks();
      if (line[i] !== '"') throw new Error(`label ${label}: the value is not quoted`);
      let j = ++i;
      while (j < line.length && line[j] !== '"') j += line[j] === '\\' ? 2 : 1;
      if (j >= line.length) throw new Error(`label ${label}: unterminated value`);
      if (label in labels) throw new Error(`label ${label} twice`);
      labels[label] = unescape(line.slice(i, j), true);
      i = j + 1;
      skipBlanks();
      if (line[i] === ',') i++;
      else if (line[i] !== '}') throw new Error(`expected , or } at column ${i + 1}`);
    }
  }
  const rest = line.slice(i).trim().split(/[ \t]+/);
  if (rest.length < 1 || rest.length > 2 || rest[0] === '') throw new Error('expected a value');
  const value = parseValue(rest[0]);
  if (value === undefined) throw new Error(`bad value ${rest[0]}`);
  const sample = {name, labels, value};
  if (rest.length === 2) {
    if (!/^-?\d+$/.test(rest[1])) throw new Error(`bad timestamp ${rest[1]}`);
    sample.timestamp = Number(rest[1]);
  }
  return sample;
}

const SUFFIXES = {histogram: ['_bucket', '_sum', '_count'], summary: ['_sum', '_count']};

// The families of an exposition, in order of appearance: Map name -> {name, type, help,
// samples: [{name, labels, value, timestamp?}]}. A histogram's or summary's _bucket, _sum and
// _count samples belong to its family. Lines that cannot be parsed are listed in `errors` (as
// "line N: why") rather than dropped in silence.
export function parseMetrics(text) {
  const families = new Map();
  const errors = [];
  const family = (name) => {
    if (!families.has(name)) families.set(name, {name, type: 'untyped', help: '', samples: []});
    return families.get(name);
  };
  // Which family a sample name belongs to: itself, or a typed family it is a suffix of.
  const owner = (name) => {
    if (families.has(name)) return families.get(name);
    for (const [base, f] of families) {
      for (const s of SUFFIXES[f.type] || []) if (name === base + s) return f;
    }
    return family(name);
  };
  text.split('\n').forEach((raw, index) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    if (line.startsWith('#')) {
      const m = /^#[ \t]+(HELP|TYPE)[ \t]+([a-zA-Z_:][a-zA-Z0-9_:]*)(?:[ \t]+(.*))?$/.exec(line);
      if (!m) return;  // another comment
      if (m[1] === 'HELP') family(m[2]).help = unescape(m[3] || '', false);
      else family(m[2]).type = (m[3] || 'untyped').trim();
      return;
    }
    try {
      const sample = parseSampleLine(line);
      owner(sample.name).samples.push(sample);
    } catch (e) {
      errors.push(`line ${index + 1}: ${e.message}`);
    }
  });
  return {families, errors};
}

// The sum of a counter's or gauge's samples over every label set (undefined when absent).
export function total(families, name) {
  const f = families.get(name);
  if (!f || f.samples.length === 0) return undefined;
  return f.samples.reduce((sum, s) => sum + s.value, 0);
}

// A histogram summed over its label sets (but `le`): {count, sum, buckets: [[le, cumulative]]}
// with the buckets in increasing `le`, +Inf last. Undefined when the family has no samples.
export function histogram(families, name) {
  const f = families.get(name);
  if (!f || f.samples.length === 0) return undefined;
  const buckets = new Map();
  let count = 0;
  let sum = 0;
  for (const s of f.samples) {
    if (s.name === name + '_count') count += s.value;
    else if (s.name === name + '_sum') sum += s.value;
    else if (s.name === name + '_bucket') {
      const le = parseValue(s.labels.le);
      if (le !== undefined) buckets.set(le, (buckets.get(le) || 0) + s.value);
    }
  }
  return {count, sum, buckets: [...buckets.entries()].sort((a, b) => a[0] - b[0])};
}

// `now` minus `before` (a histogram of the previous poll, or undefined: everything counts).
export function histogramDelta(now, before) {
  if (!before) return now;
  const old = new Map(before.buckets);
  return {
    count: now.count - before.count,
    sum: now.sum - before.sum,
    buckets: now.buckets.map(([le, c]) => [le, c - (old.get(le) || 0)]),
  };
}

// The q-quantile (0 < q < 1) of a histogram, as Prometheus' histogram_quantile computes it:
// linear within the bucket that holds it, the upper bound of the highest finite bucket when it
// falls in +Inf. NaN when the histogram holds no observations.
export function quantile(q, h) {
  const buckets = h.buckets;
  if (buckets.length === 0) return NaN;
  const observations = buckets[buckets.length - 1][1];
  if (!(observations > 0)) return NaN;
  const rank = q * observations;
  let lower = 0;
  let below = 0;
  for (const [le, cumulative] of buckets) {
    if (cumulative >= rank) {
      if (le === Infinity) return lower;
      return lower + (le - lower) * ((rank - below) / (cumulative - below));
    }
    lower = le;
    below = cumulative;
  }
  return lower;
}

// A number for people: integers as they are, others with three significant digits.
export function formatNumber(v) {
  if (v === undefined) return '–';
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : '-Inf';
  if (Number.isInteger(v)) return String(v);
  return String(Number(v.toPrecision(3)));
}
