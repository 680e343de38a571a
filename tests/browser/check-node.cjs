//   node check-node.cjs <package-lock.json> [<node version>]
// Exits 1, saying what is wrong, when this Node.js (or the version given) is older than a module
// locked in the given package-lock.json asks in its "engines" (">=N" or ">= N.M").
// scripts/install-deps.sh runs it before `npm ci`, so that an old Node is named at once rather
// than failing inside the tests; tests/browser/check-node.test.mjs runs it for Debian 12's Node.
// CommonJS and no modules: it must run on any Node.js, however old.
'use strict';
const fs = require('fs');

const lockPath = process.argv[2];
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
const version = process.argv[3] || process.versions.node;
const have = version.replace(/^v/, '').split('.').map(Number);
let need = [0, 0];
let who = '';
for (const [path, p] of Object.entries(lock.packages || {})) {
  const m = /^>=\s*v?(\d+)(?:\.(\d+))?/.exec((p.engines && p.engines.node) || '');
  if (!m) continue;
  const v = [Number(m[1]), Number(m[2] || 0)];
  if (v[0] > need[0] || (v[0] === need[0] && v[1] > need[1])) {
    need = v;
    who = path.replace(/^.*node_modules\//, '') + '@' + p.version;
  }
}
if (have[0] < need[0] || (have[0] === need[0] && have[1] < need[1])) {
  const what = process.argv[3] ? `Node.js ${version}` : `Node.js ${process.version} (${process.execPath})`;
  console.error(`${what} is too old for the browser tests: ` +
                `${who} in ${lockPath} needs Node.js >= ${need.join('.')}. Put a newer node ` +
                'first on PATH, or lock versions that run on this one (the lock is meant to run ' +
                'on Debian 12\'s own nodejs, 18.20).');
  process.exit(1);
}
