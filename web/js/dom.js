// Building DOM nodes. Text always goes in as text nodes (textContent), never as HTML, so user
// content cannot become markup. No script of the UI parses strings as HTML (a unit test of the
// embedded assets checks for the APIs that do).

// h('div', {class: 'x', onclick: fn}, 'text', child, [more children]) -> an element.
// Attribute values are set with setAttribute (never a handler attribute: `on*` keys attach
// listeners), children that are strings or numbers become text nodes, null/false are skipped.
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') {
      el.className = value;
    } else if (key === 'text') {
      el.textContent = String(value);
    } else if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2), value);
    } else if (key === 'value') {
      el.value = value;
    } else if (key === 'checked' || key === 'disabled' || key === 'hidden' || key === 'required') {
      el[key] = Boolean(value);
    } else if (key.startsWith('on')) {
      throw new Error('handler attributes are not allowed: ' + key);
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) {
      append(el, child);
    } else if (child instanceof Node) {
      el.appendChild(child);
    } else {
      el.appendChild(document.createTextNode(String(child)));
    }
  }
}

// Replaces every child of `el`.
export function mount(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// A link to a hash route; `parts` are encoded path segments.
export function routeLink(text, ...parts) {
  return h('a', {href: '#/' + parts.map(encodeURIComponent).join('/')}, text);
}

export function formatTime(ms) {
  const d = new Date(Number(ms));
  return Number.isFinite(d.getTime()) ? d.toLocaleString() : String(ms);
}

let toastTimer = null;
// A short message in the corner; `isError` colours it.
export function toast(message, isError = false) {
  const el = document.getElementById('toast');
  el.textContent = String(message);
  el.className = isError ? 'error' : '';
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, isError ? 6000 : 2500);
}

// Hides the toast at once (on leaving a page: its message was about that page).
export function clearToast() {
  clearTimeout(toastTimer);
  const el = document.getElementById('toast');
  if (el) el.hidden = true;
}

// Reads a form's named fields into an object of strings.
export function formValues(form) {
  const out = {};
  for (const [k, v] of new FormData(form).entries()) out[k] = String(v);
  return out;
}
