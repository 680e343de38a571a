// Who is logged in, as the server says (GET /api/v1/me). The session itself is an HttpOnly
// cookie the script never sees.
import {api, ApiError} from './api.js';

export const session = {me: null};

export async function refreshSession() {
  try {
    const body = await api('GET', '/me');
    session.me = body && body.user ? body.user : null;
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 401) throw e;
    session.me = null;
  }
  return session.me;
}
