// Calls to the server: the recipes' JSON API (/api/v1, docs/api-v1.md) and HBase's REST API
// (docs/rest.md). Every call is same-origin with the session cookie; every write carries
// X-Basalt-CSRF: 1, which the API requires of cookie-authenticated writes.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

// The admin token (docs/api-v1.md "Admin") typed on the admin pages; kept for this tab only.
export function adminToken() {
  return sessionStorage.getItem('basalt.adminToken') || '';
}
export function setAdminToken(token) {
  if (token) sessionStorage.setItem('basalt.adminToken', token);
  else sessionStorage.removeItem('basalt.adminToken');
}

function headersFor(method, extra) {
  const headers = {Accept: 'application/json', ...extra};
  if (WRITE_METHODS.has(method)) headers['X-Basalt-CSRF'] = '1';
  return headers;
}

async function errorOf(res) {
  const text = await res.text();
  try {
    const body = JSON.parse(text);
    if (body && body.error) {
      return new ApiError(res.status, body.error.code || '', body.error.message || text);
    }
  } catch (e) {
    // not JSON: REST errors are one line of text
  }
  return new ApiError(res.status, '', text.trim() || res.statusText || ('HTTP ' + res.status));
}

// A call to /api/v1. Returns the parsed JSON body, or null for 204.
export async function api(method, path, body, {admin = false} = {}) {
  const extra = {};
  if (body !== undefined) extra['Content-Type'] = 'application/json';
  if (admin && adminToken()) extra['X-Basalt-Admin'] = adminToken();
  const res = await fetch('/api/v1' + path, {
    method,
    headers: headersFor(method, extra),
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  if (!res.ok) throw await errorOf(res);
  if (res.status === 204) return null;
  const text = await res.text();
  return text ? JSON.parse(text) : null;
}

// A call to HBase's REST API at the root. Returns {status, headers, body} with body parsed as
// JSON when there is one.
export async function rest(method, path, body) {
  const extra = {};
  if (body !== undefined) extra['Content-Type'] = 'application/json';
  if (adminToken()) extra['X-Basalt-Admin'] = adminToken();
  const res = await fetch(path, {
    method,
    headers: headersFor(method, extra),
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  if (!res.ok) throw await errorOf(res);
  const text = await res.text();
  return {status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null};
}

// Plain text (for /metrics).
export async function getText(path) {
  const res = await fetch(path, {credentials: 'same-origin', headers: {Accept: 'text/plain'}});
  if (!res.ok) throw await errorOf(res);
  return res.text();
}

// Encodes one path segment (user names, post ids, table names).
export function seg(s) {
  return encodeURIComponent(s);
}
