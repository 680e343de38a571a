// The locked npm modules of the browser tests run on stock Debian 12's Node.js (18.20.4), and
// check-node.cjs, which scripts/install-deps.sh runs, says clearly when a Node is too old.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const check = (lock, version) => spawnSync(process.execPath,
    [join(here, 'check-node.cjs'), lock, ...(version ? [version] : [])], {encoding: 'utf8'});

test('the lock runs on Debian 12\'s Node.js 18.20.4, and on this one', () => {
  for (const version of ['18.20.4', undefined]) {
    const r = check(join(here, 'package-lock.json'), version);
    assert.equal(r.status, 0, r.stderr);
  }
});

test('a Node.js older than a locked module\'s engines is named, with the module', () => {
  const dir = mkdtempSync(join(tmpdir(), 'basalt-check-node-'));
  try {
    const lock = join(dir, 'package-lock.json');
    writeFileSync(lock, JSON.stringify({packages: {
      '': {name: 'x'},
      'node_modules/old': {version: '1.0.0', engines: {node: '>=14'}},
      'node_modules/new': {version: '2.0.0', engines: {node: '>= 20.5'}},
    }}));
    const r = check(lock, '18.20.4');
    assert.equal(r.status, 1);
    assert.match(r.stderr, /Node\.js 18\.20\.4 is too old .*new@2\.0\.0 .* needs Node\.js >= 20\.5/);
    assert.equal(check(lock, '20.5.0').status, 0);
    assert.equal(check(lock, 'v22.1.0').status, 0);
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
});
