// Admin pages over HBase's REST API: namespaces and their tables (GET /namespaces,
// /namespaces/{ns}/tables), a table's family settings (GET /{table}/schema) and a row browser
// (PUT /{table}/scanner with a JSON Scanner body, then GET the scanner until 204).
import {ApiError, rest, adminToken, setAdminToken} from '../api.js';
import {h, mount, routeLink, toast, formValues, formatTime} from '../dom.js';
import {fromBase64, toBase64, printable, parseBinary, compareBytes, prefixEnd} from '../bytes.js';

// Tables are addressed by their qualified name ("default:t"), so a table whose name is also a
// path the server uses for itself (such as "ui") still reaches REST.
function qualified(table) {
  return table.includes(':') ? table : 'default:' + table;
}
function tablePath(table) {
  return '/' + encodeURIComponent(qualified(table));
}

function tokenForm() {
  const input = h('input', {name: 'token', type: 'password', value: adminToken(),
                            autocomplete: 'off', placeholder: 'only if the server has one'});
  const form = h('form', {class: 'inline card', id: 'admin-token-form'},
    h('label', null, 'Admin token', input), h('button', {type: 'submit', class: 'secondary'}, 'Use'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    setAdminToken(input.value);
    toast(input.value ? 'Admin token set for this tab' : 'Admin token cleared');
  });
  return form;
}

// A form whose submit runs `action(values)`, then `done()`; errors show in the form.
function actionForm(id, fields, button, action, done) {
  const error = h('span', {class: 'error form-error'});
  const form = h('form', {class: 'inline card', id}, fields, h('button', {type: 'submit'}, button), error);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    try {
      await action(formValues(form));
      form.reset();
      await done();
    } catch (e) {
      error.textContent = e.message;
    }
  });
  return form;
}

export async function adminPage(main) {
  const list = h('section', {id: 'namespaces'});
  const reload = () => adminPage(main);
  const createNamespace = actionForm('create-namespace-form',
    h('label', null, 'Namespace', h('input', {name: 'ns', required: true})), 'Create namespace',
    (v) => rest('POST', '/namespaces/' + encodeURIComponent(v.ns), {}), reload);
  const createTable = actionForm('create-table-form', [
    h('label', null, 'Table', h('input', {name: 'table', required: true, placeholder: 'ns:name or name'})),
    h('label', null, 'Families', h('input', {name: 'families', required: true, placeholder: 'cf1,cf2'})),
  ], 'Create table', (v) => rest('PUT', tablePath(v.table) + '/schema', {
    name: qualified(v.table),
    ColumnSchema: v.families.split(',').map((f) => f.trim()).filter((f) => f).map((name) => ({name})),
  }), reload);
  mount(main, h('h1', null, 'Namespaces and tables'), tokenForm(), list,
        h('h2', null, 'Create'), createNamespace, createTable,
        h('p', null, h('a', {href: '#/admin/stats'}, 'Live server figures')));
  const namespaces = (await rest('GET', '/namespaces')).body.Namespace || [];
  const cards = [];
  for (const ns of namespaces) {
    let tables = null;
    let refused = '';
    try {
      tables = (await rest('GET', '/namespaces/' + encodeURIComponent(ns) + '/tables')).body;
    } catch (e) {
      // The app's namespace is reserved (docs/security.md): 403 without the admin token.
      if (!(e instanceof ApiError) || e.status !== 403) throw e;
      refused = e.message;
    }
    const names = ((tables && tables.table) || []).map((t) => t.name);
    cards.push(h('div', {class: 'card namespace', 'data-namespace': ns},
      h('h2', null, ns),
      refused ? h('p', {class: 'muted reserved'}, refused) :
      names.length === 0 ? h('p', {class: 'muted'}, 'No tables.') :
        h('ul', {class: 'plain'}, names.map((name) => {
          const full = name.includes(':') ? name : (ns === 'default' ? name : ns + ':' + name);
          return h('li', {class: 'table-item'}, routeLink(full, 'admin', 'table', full));
        }))));
  }
  mount(list, cards);
}

function schemaTable(schema) {
  const families = schema.ColumnSchema || [];
  // The settings people change most (VERSIONS, TTL) first, so a narrow window shows them; the
  // table scrolls sideways inside its box instead of spilling out of the page.
  const keys = ['VERSIONS', 'TTL'].filter((k) => families.some((f) => k in f));
  for (const f of families) {
    for (const k of Object.keys(f)) {
      if (k !== 'name' && !keys.includes(k)) keys.push(k);
    }
  }
  return h('div', {class: 'scroll'}, h('table', {class: 'grid', id: 'schema-table'},
    h('thead', null, h('tr', null, h('th', null, 'family'), keys.map((k) => h('th', null, k)))),
    h('tbody', null, families.map((f) => h('tr', {class: 'family-row'},
      h('td', {class: 'family-name'}, f.name),
      keys.map((k) => h('td', null, f[k] === undefined ? '' : String(f[k]))))))));
}

// Reads up to `maxRows` rows from a new scanner, merging a row split across chunks, and always
// closes the scanner.
async function scanRows(table, body, maxRows) {
  const created = await rest('PUT', tablePath(table) + '/scanner', body);
  const location = created.headers.get('Location');
  if (!location) throw new Error('the server returned no scanner location');
  const scanner = new URL(location, window.location.href).pathname;
  const rows = [];
  try {
    while (rows.length < maxRows) {
      const chunk = await rest('GET', scanner);
      if (chunk.status === 204 || !chunk.body) break;
      for (const row of chunk.body.Row || []) {
        const last = rows[rows.length - 1];
        if (last && last.key === row.key) last.cells.push(...row.Cell);
        else rows.push({key: row.key, cells: [...row.Cell]});
      }
    }
  } finally {
    await rest('DELETE', scanner).catch(() => {});
  }
  return rows.slice(0, maxRows);
}

function scannerBody(v) {
  let start = v.start ? parseBinary(v.start) : null;
  let stop = v.stop ? parseBinary(v.stop) : null;
  if (v.prefix) {
    // The prefix narrows [start, stop) to the keys that begin with it.
    const p = parseBinary(v.prefix);
    const end = prefixEnd(p);
    if (!start || compareBytes(p, start) > 0) start = p;
    if (end && (!stop || compareBytes(end, stop) < 0)) stop = end;
  }
  const body = {batch: 1000};
  if (start) body.startRow = toBase64(start);
  if (stop) body.endRow = toBase64(stop);
  const versions = parseInt(v.versions, 10);
  body.maxVersions = Number.isFinite(versions) && versions > 0 ? versions : 1;
  if (v.filter.trim()) body.filter = v.filter.trim();
  return body;
}

function rowsTable(rows) {
  const trs = [];
  for (const row of rows) {
    const key = printable(fromBase64(row.key));
    row.cells.forEach((cell, i) => {
      trs.push(h('tr', {class: 'cell-row'},
        h('td', {class: 'bytes row-key'}, i === 0 ? key : ''),
        h('td', {class: 'bytes cell-column'}, printable(fromBase64(cell.column))),
        h('td', {class: 'cell-time', title: formatTime(cell.timestamp)}, String(cell.timestamp)),
        h('td', {class: 'bytes cell-value'}, printable(fromBase64(cell.$)))));
    });
  }
  return h('table', {class: 'grid', id: 'rows-table'},
    h('thead', null, h('tr', null, ['row', 'column', 'timestamp', 'value'].map((t) => h('th', null, t)))),
    h('tbody', null, trs));
}

function familyForm(table, done) {
  return actionForm('family-form', [
    h('label', null, 'Family', h('input', {name: 'family', required: true})),
    h('label', null, 'VERSIONS', h('input', {name: 'versions', type: 'number', min: 1})),
    h('label', null, 'TTL (s)', h('input', {name: 'ttl', type: 'number', min: 1})),
  ], 'Add / change family', (v) => {
    const family = {name: v.family};
    if (v.versions) family.VERSIONS = v.versions;
    if (v.ttl) family.TTL = v.ttl;
    // POST changes only the listed family and leaves the others (docs/rest.md).
    return rest('POST', tablePath(table) + '/schema', {name: qualified(table), ColumnSchema: [family]});
  }, done);
}

export async function adminTablePage(main, table) {
  const schema = (await rest('GET', tablePath(table) + '/schema')).body;
  const drop = h('button', {class: 'danger', id: 'drop-table', onclick: async () => {
    if (!confirm('Drop table ' + table + ' and all its data?')) return;
    try {
      await rest('DELETE', tablePath(table) + '/schema');
      toast('Dropped ' + table);
      location.hash = '#/admin';
    } catch (e) {
      toast(e.message, true);
    }
  }}, 'Drop table');
  const result = h('section', {id: 'rows'});
  const form = h('form', {class: 'inline card', id: 'scan-form'},
    h('label', null, 'Start row', h('input', {name: 'start', placeholder: 'inclusive'})),
    h('label', null, 'Stop row', h('input', {name: 'stop', placeholder: 'exclusive'})),
    h('label', null, 'Prefix', h('input', {name: 'prefix'})),
    h('label', null, 'Filter', h('input', {name: 'filter', size: 40,
                                           placeholder: "e.g. ValueFilter(=, 'substring:x')"})),
    h('label', null, 'Versions', h('input', {name: 'versions', type: 'number', min: 1, value: 1})),
    h('label', null, 'Rows', h('input', {name: 'rows', type: 'number', min: 1, max: 10000, value: 50})),
    h('button', {type: 'submit'}, 'Scan'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const v = formValues(form);
    const maxRows = Math.min(Math.max(parseInt(v.rows, 10) || 50, 1), 10000);
    mount(result, h('p', {class: 'muted'}, 'Scanning…'));
    try {
      const rows = await scanRows(table, scannerBody(v), maxRows);
      mount(result, h('p', {class: 'muted', id: 'rows-count'}, rows.length + ' row(s)'), rowsTable(rows));
    } catch (e) {
      mount(result, h('p', {class: 'error', id: 'scan-error'}, e.message));
    }
  });
  mount(main, h('h1', null, 'Table ', h('code', {id: 'table-name'}, table)),
        h('p', null, h('a', {href: '#/admin'}, '← all tables')),
        h('h2', null, 'Families'), h('div', {class: 'scroll'}, schemaTable(schema)),
        familyForm(table, () => adminTablePage(main, table)),
        h('h2', null, 'Rows'),
        h('p', {class: 'muted'}, 'Row keys take \\xHH escapes for binary bytes; filters use ',
          'HBase\'s filter language.'),
        form, result, h('h2', null, 'Danger'), drop);
}
