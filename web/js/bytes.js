// Bytes in HBase REST JSON are base64. These helpers convert between base64, byte arrays and
// text, and show bytes the way HBase's shell prints them (Bytes.toStringBinary).

const encoder = new TextEncoder();

export function utf8(text) {
  return encoder.encode(text);
}

export function fromBase64(b64) {
  const bin = atob(b64 || '');
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export function toBase64(bytes) {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

// Printable ASCII stays, everything else is \xHH (as HBase's toStringBinary), except that
// valid UTF-8 text outside ASCII is shown as text.
export function printable(bytes) {
  let text = null;
  try {
    text = new TextDecoder('utf-8', {fatal: true}).decode(bytes);
  } catch (e) {
    text = null;
  }
  if (text !== null && !/[\u0000-\u001f\u007f]/.test(text)) return text;
  let out = '';
  for (const b of bytes) {
    if (b >= 0x20 && b < 0x7f && b !== 0x5c) out += String.fromCharCode(b);
    else out += '\\x' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

// Parses \xHH escapes in a typed row key, so binary keys can be entered.
export function parseBinary(text) {
  const out = [];
  for (let i = 0; i < text.length;) {
    const m = /^\\x([0-9a-fA-F]{2})/.exec(text.slice(i));
    if (m) {
      out.push(parseInt(m[1], 16));
      i += 4;
      continue;
    }
    const cp = text.codePointAt(i);
    const ch = String.fromCodePoint(cp);
    out.push(...utf8(ch));
    i += ch.length;
  }
  return new Uint8Array(out);
}

export function compareBytes(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] !== b[i]) return a[i] - b[i];
  }
  return a.length - b.length;
}

// The first key after every key that starts with `prefix`, or null when there is none
// (a prefix of only 0xFF bytes).
export function prefixEnd(prefix) {
  const out = Array.from(prefix);
  while (out.length > 0 && out[out.length - 1] === 0xff) out.pop();
  if (out.length === 0) return null;
  out[out.length - 1] += 1;
  return new Uint8Array(out);
}
