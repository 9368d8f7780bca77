// Number formatting for durations (the API gives integer nanoseconds) and counts.

export function duration(ns) {
  if (ns === null || ns === undefined) return '–';
  const a = Math.abs(ns);
  if (a < 1e3) return `${Math.round(ns)} ns`;
  if (a < 1e6) return `${(ns / 1e3).toFixed(a < 1e4 ? 2 : 1)} µs`;
  if (a < 1e9) return `${(ns / 1e6).toFixed(a < 1e7 ? 2 : 1)} ms`;
  return `${(ns / 1e9).toFixed(2)} s`;
}

export function count(n) {
  if (n === null || n === undefined) return '–';
  return Number(n).toLocaleString('en-US');
}

export function seconds(ns) {
  return `${(ns / 1e9).toFixed(3)} s`;
}

export function number(x, digits = 1) {
  if (x === null || x === undefined || Number.isNaN(x)) return '–';
  return Number(x).toFixed(digits);
}
