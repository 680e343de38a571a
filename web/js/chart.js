// A bar chart drawn on a <canvas>: no library. Used for click counts over time and for the
// server's request rate.

function niceMax(value) {
  if (value <= 0) return 1;
  const exp = Math.pow(10, Math.floor(Math.log10(value)));
  for (const m of [1, 2, 5, 10]) {
    if (m * exp >= value) return m * exp;
  }
  return 10 * exp;
}

// Draws `points` ([{x, y}], x in ms since the epoch) as bars. `canvas` gets data-points (how
// many were drawn) and data-max (the largest y) so tests and tools can read what it shows.
export function drawBars(canvas, points, {label = '', color = '#2f5d7c'} = {}) {
  const ratio = window.devicePixelRatio || 1;
  const cssWidth = canvas.clientWidth || 600;
  const cssHeight = canvas.clientHeight || 260;
  canvas.width = Math.round(cssWidth * ratio);
  canvas.height = Math.round(cssHeight * ratio);
  const ctx = canvas.getContext('2d');
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, cssWidth, cssHeight);

  const left = 48, right = 12, top = 22, bottom = 28;
  const w = cssWidth - left - right;
  const hgt = cssHeight - top - bottom;
  const maxY = points.reduce((m, p) => Math.max(m, p.y), 0);
  const yMax = niceMax(maxY);
  // Gridlines at round values: fifths of 1, 5 and 10 (times a power of ten), quarters of 2; and
  // one per unit for small counts.
  const mantissa = yMax / Math.pow(10, Math.floor(Math.log10(yMax)));
  let ticks = Math.abs(mantissa - 2) < 1e-9 ? 4 : 5;
  if (Number.isInteger(yMax) && yMax < ticks) ticks = yMax;
  canvas.dataset.points = String(points.length);
  canvas.dataset.max = String(maxY);

  ctx.font = '12px system-ui, sans-serif';
  ctx.fillStyle = '#66737c';
  ctx.strokeStyle = '#d9dee2';
  ctx.lineWidth = 1;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'right';
  for (let i = 0; i <= ticks; i++) {
    const v = (yMax * i) / ticks;
    const y = top + hgt - (hgt * i) / ticks;
    ctx.beginPath();
    ctx.moveTo(left, y + 0.5);
    ctx.lineTo(left + w, y + 0.5);
    ctx.stroke();
    ctx.fillText(String(Number(v.toPrecision(6))), left - 6, y);
  }
  if (label) {
    ctx.textAlign = 'left';
    ctx.fillText(label, left, 10);
  }
  if (points.length === 0) {
    ctx.textAlign = 'center';
    ctx.fillText('no data', left + w / 2, top + hgt / 2);
    return;
  }
  const slot = w / points.length;
  const bar = Math.max(1, slot * 0.8);
  ctx.fillStyle = color;
  points.forEach((p, i) => {
    const bh = (hgt * p.y) / yMax;
    ctx.fillRect(left + i * slot + (slot - bar) / 2, top + hgt - bh, bar, bh);
  });
  ctx.fillStyle = '#66737c';
  ctx.textBaseline = 'top';
  const fmt = (ms) => new Date(ms).toLocaleTimeString([], {hour: '2-digit', minute: '2-digit'});
  ctx.textAlign = 'left';
  ctx.fillText(fmt(points[0].x), left, top + hgt + 8);
  ctx.textAlign = 'right';
  ctx.fillText(fmt(points[points.length - 1].x), left + w, top + hgt + 8);
}
