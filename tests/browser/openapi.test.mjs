// The OpenAPI document that `basalt serve` serves at /api/v1/openapi.json, checked by a real
// validator: @seriousme/openapi-schema-validator (the OpenAPI Initiative's JSON schema for the
// document's version, applied with ajv; every $ref must resolve). Run by CTest
// (OpenApiSchemaValidator):
//   BASALT_BINARY=build/release/basalt node --test tests/browser/openapi.test.mjs
import {after, before, test} from 'node:test';
import assert from 'node:assert/strict';
import {Validator} from '@seriousme/openapi-schema-validator';
import {startServer} from './server.mjs';

let server;

before(async () => {
  server = await startServer(process.env.BASALT_BINARY);
});

after(async () => {
  if (server) assert.equal(await server.stop(), 0, 'basalt serve exits 0 on SIGTERM');
});

async function served() {
  const res = await fetch(server.url + '/api/v1/openapi.json');
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type'), /^application\/json/);
  return res.json();
}

test('the served document is valid OpenAPI 3.0', async () => {
  const validator = new Validator();
  const result = await validator.validate(await served());
  assert.deepEqual(result, {valid: true}, JSON.stringify(result.errors, null, 1));
  assert.equal(validator.version, '3.0');
  assert.doesNotThrow(() => validator.resolveRefs());
});

test('the validator does catch a broken copy', async () => {
  // So that a validator which passes everything cannot pass this test.
  const broken = await served();
  delete broken.paths['/api/v1/posts'].post.responses['201'].description;
  broken.components.schemas.Post.properties.id.type = 'text';
  const result = await new Validator().validate(broken);
  assert.equal(result.valid, false);
  const dump = JSON.stringify(result.errors);
  assert.match(dump, /description/);
});
