// Line charts drawn as SVG: a few series over a shared x axis, nice ticks, optional marker.
import {h, s} from './dom.js';

function ticks(min, max, n) {
  if (!(max > min)) { max = min + 1; }
  const raw = (max - min) / n;
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map(m => m * mag).find(st => st >= raw);
  const out = [];
  // up to the first tick at or above max, so the axis always covers the data
  for (let v = Math.ceil(min / step) * step; v < max + step - step * 1e-9; v += step) out.push(+v.toFixed(10));
  return out;
}

/**
 * lineChart({title, id, xLabel, yLabel, x: [...], series: [{name, values, color}], yFormat, xFormat, marker: {index, label}})
 * Gaps (null values) break a line.
 */
export function lineChart(o) {
  const W = 640, H = 260, L = 64, R = 16, T = 12, B = 40;
  const xs = o.x;
  const all = o.series.flatMap(sr => sr.values).filter(v => v !== null && v !== undefined && !Number.isNaN(v));
  const xmin = Math.min(...xs), xmax = Math.max(...xs);
  const ymax = all.length ? Math.max(...all) : 1;
  const yt = ticks(0, ymax || 1, 5);
  const ytop = yt[yt.length - 1] || 1;
  const xt = ticks(xmin, xmax === xmin ? xmin + 1 : xmax, 6).filter(v => v <= xmax);
  const px = v => L + (xmax === xmin ? 0.5 : (v - xmin) / (xmax - xmin)) * (W - L - R);
  const py = v => H - B - (v / ytop) * (H - T - B);
  // tick labels with as many decimals as the tick step needs (0.005 s steps must not all read "0")
  const decimals = t => (t.length > 1 ? Math.max(0, Math.min(6, -Math.floor(Math.log10(t[1] - t[0] || 1) + 1e-9))) : 0);
  const yf = o.yFormat || (v => Number(v).toFixed(decimals(yt)));
  const xf = o.xFormat || (v => Number(v).toFixed(decimals(xt)));
  const svg = s('svg', {class: 'chart', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': `${o.title}: ${o.series.map(x => x.name).join(', ')} against ${o.xLabel}`});
  for (const v of yt) {
    svg.append(s('line', {class: 'grid', x1: L, x2: W - R, y1: py(v), y2: py(v)}));
    svg.append(s('text', {x: L - 6, y: py(v) + 4, 'text-anchor': 'end'}, yf(v)));
  }
  for (const v of xt) {
    if (v < xmin || v > xmax) continue;
    svg.append(s('text', {x: px(v), y: H - B + 16, 'text-anchor': 'middle'}, xf(v)));
  }
  svg.append(s('line', {class: 'axis', x1: L, x2: W - R, y1: H - B, y2: H - B}));
  svg.append(s('line', {class: 'axis', x1: L, x2: L, y1: T, y2: H - B}));
  svg.append(s('text', {x: (L + W - R) / 2, y: H - 6, 'text-anchor': 'middle'}, o.xLabel));
  if (o.yLabel) svg.append(s('text', {x: 12, y: (T + H - B) / 2, transform: `rotate(-90 12 ${(T + H - B) / 2})`, 'text-anchor': 'middle'}, o.yLabel));
  for (const sr of o.series) {
    let d = '', pen = false;
    sr.values.forEach((v, i) => {
      if (v === null || v === undefined || Number.isNaN(v)) { pen = false; return; }
      d += `${pen ? 'L' : 'M'}${px(xs[i]).toFixed(1)},${py(v).toFixed(1)}`;
      pen = true;
    });
    svg.append(s('path', {class: 'series', d, stroke: sr.color}));
    // single points would be invisible as a path: dots for every value
    sr.values.forEach((v, i) => {
      if (v === null || v === undefined || Number.isNaN(v)) return;
      svg.append(s('circle', {cx: px(xs[i]), cy: py(v), r: xs.length > 60 ? 1.5 : 3, fill: sr.color},
        s('title', {}, `${sr.name} at ${xf(xs[i])}: ${yf(v)}`)));
    });
  }
  if (o.marker && o.marker.index >= 0) {
    const i = o.marker.index, sr = o.series[0], v = sr.values[i];
    const x = px(xs[i]);
    svg.append(s('line', {x1: x, x2: x, y1: T, y2: H - B, stroke: 'var(--knee)', 'stroke-dasharray': '4 3'}));
    if (v !== null && v !== undefined) svg.append(s('circle', {class: 'knee', cx: x, cy: py(v), r: 6, 'data-knee': xs[i]}));
    svg.append(s('text', {x: x + 6, y: T + 12, class: 'knee-label'}, o.marker.label));
  }
  const legend = h('div', {class: 'legend'}, o.series.map(sr => h('span', {style: `--c:${sr.color}`}, sr.name)));
  return h('figure', {id: o.id}, h('figcaption', {}, o.title), svg, legend);
}
