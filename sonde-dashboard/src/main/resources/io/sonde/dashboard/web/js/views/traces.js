// Traces: search requests by root operation, duration and time; one request's call tree
// (collapsible, wall and CPU time per execution, corrected times when a probe cost is set) and its timeline.
import {get} from '../api.js';
import {empty, errorBox, h, s} from '../dom.js';
import {duration, seconds} from '../format.js';

export async function tracesView({params, summary, navigate}) {
  const ops = await get('/api/operations');
  const state = {
    op: params.get('op') || '', min: params.get('minMs') || '', from: params.get('from') || '', to: params.get('to') || '',
    limit: params.get('limit') || '50', trace: params.get('trace') || '',
  };
  const form = searchForm(ops, state, navigate);
  const out = [h('h2', {}, 'Traces'), form];
  if (!summary.requests) {
    out.push(empty('This log holds no complete request (no root execution ended): nothing to search.'));
    return out;
  }
  const found = await get('/api/traces', {
    operation: state.op, minDurationNs: state.min === '' ? null : Math.round(parseFloat(state.min) * 1e6),
    from: state.from, to: state.to, limit: state.limit,
  });
  const results = h('section', {id: 'trace-results'});
  const note = `${found.matches} request(s) match; ${found.traces.length} shown by start time.`
    + (found.truncatedIndex ? ` Only the first ${found.listed} requests of the log are searchable.` : '');
  if (!found.traces.length) {
    results.append(empty('No request matches this search. Widen it: another operation, a shorter minimum duration, a larger time range.'));
  } else {
    const head = h('tr', {}, ['Start', 'Operation', 'Thread', 'Duration', 'CPU', 'Error'].map((c, i) => h('th', {scope: 'col', class: i === 1 || i === 2 || i === 5 ? 'text' : null}, c)));
    const rows = found.traces.map(t => h('tr', {class: t.id === state.trace ? 'selected' : null, dataset: {trace: t.id}},
      h('td', {}, seconds(t.startOffsetNanos)),
      h('td', {class: 'name'}, h('a', {href: link({...state, trace: t.id}), 'aria-current': t.id === state.trace ? 'true' : null}, t.operation)),
      h('td', {class: 'text'}, t.thread),
      h('td', {dataset: {field: 'duration', value: String(t.durationNanos)}}, duration(t.durationNanos)),
      h('td', {}, duration(t.cpuNanos)),
      h('td', {class: 'text'}, t.exception || '')));
    results.append(h('p', {class: 'note', id: 'trace-count', dataset: {matches: String(found.matches)}}, note),
      h('div', {style: 'max-height: 22rem; overflow: auto'}, h('table', {id: 'traces-table'}, h('thead', {}, head), h('tbody', {}, rows))));
  }
  out.push(results, await detail(state.trace));
  return out;
}

function link(st) {
  const q = new URLSearchParams();
  const map = {op: st.op, minMs: st.min, from: st.from, to: st.to, limit: st.limit, trace: st.trace};
  for (const [k, v] of Object.entries(map)) if (v) q.set(k, v);
  return `#/traces?${q}`;
}

function searchForm(ops, st, navigate) {
  const field = (label, input) => h('label', {}, label, input);
  const op = h('select', {id: 'search-operation', name: 'op'}, h('option', {value: ''}, 'any operation'),
    ops.map(o => h('option', {value: o.operation, selected: o.operation === st.op}, o.operation)));
  const min = h('input', {id: 'search-min', name: 'minMs', type: 'number', min: 0, step: 'any', value: st.min, placeholder: 'ms'});
  const from = h('input', {id: 'search-from', name: 'from', type: 'number', min: 0, step: 'any', value: st.from, placeholder: 's'});
  const to = h('input', {id: 'search-to', name: 'to', type: 'number', min: 0, step: 'any', value: st.to, placeholder: 's'});
  const limit = h('input', {id: 'search-limit', name: 'limit', type: 'number', min: 1, max: 1000, value: st.limit});
  return h('form', {class: 'bar', role: 'search', onsubmit: e => {
    e.preventDefault();
    navigate('traces', {op: op.value, minMs: min.value, from: from.value, to: to.value, limit: limit.value});
  }},
  field('Root operation', op), field('Min. duration (ms)', min), field('From (s after start)', from), field('To (s)', to),
  field('Show at most', limit), h('button', {type: 'submit', class: 'primary', id: 'search'}, 'Search'));
}

async function detail(id) {
  const section = h('section', {id: 'trace-detail', 'aria-live': 'polite'});
  if (!id) {
    section.append(empty('Pick a request in the list to see its call tree and timeline.'));
    return section;
  }
  let t;
  try {
    t = await get(`/api/traces/${encodeURIComponent(id)}`);
  } catch (e) {
    section.append(errorBox(e.message));
    return section;
  }
  const sum = t.summary;
  section.append(h('h3', {}, `Request ${sum.id}: ${sum.operation}`),
    h('p', {class: 'note'}, `${t.rows.filter(r => r.kind === 'execution').length} execution(s) in ${t.pieces} piece(s) on ${t.threads.join(', ')}`
      + (t.corrected ? '; times corrected for the probes\' cost (measured values beside them)' : '')
      + (t.truncated ? '; TRUNCATED: part of the request was not kept' : '')),
    tree(t), timeline(t));
  return section;
}

function tree(t) {
  const rows = t.rows;
  const cols = ['Operation', 'Wall', 'CPU', 'Excl. wall', 'Wait'].concat(t.corrected ? ['Measured wall'] : []);
  const trs = [];
  rows.forEach((r, i) => {
    const hasChildren = i + 1 < rows.length && rows[i + 1].depth > r.depth;
    const pad = {style: `padding-left:${0.4 + r.depth * 1.2}rem`};
    if (r.kind === 'event') {
      trs.push(h('tr', {class: 'event', dataset: {depth: r.depth}}, h('td', {class: 'name', ...pad}, h('span', {class: 'leaf'}),
        `* ${r.type} (${r.fields})`), cols.slice(1).map(() => h('td', {}))));
      return;
    }
    const toggle = hasChildren
      ? h('button', {type: 'button', class: 'toggle', 'aria-expanded': 'true', 'aria-label': `collapse ${r.operation}`,
        onclick: e => collapse(e.currentTarget, trs, i, rows)}, '▾')
      : h('span', {class: 'leaf'});
    trs.push(h('tr', {class: 'node', dataset: {depth: r.depth, operation: r.operation}},
      h('td', {class: 'name', ...pad}, toggle, r.handoffWaitNanos !== undefined ? '⇒ ' : '', r.operation, ' ',
        h('span', {class: 'thread'}, r.thread), r.exception ? h('span', {class: 'exc'}, ` !${r.exception}`) : ''),
      h('td', {dataset: {field: 'wall', value: r.wallInclusiveNanos === null ? '' : String(r.wallInclusiveNanos)}}, duration(r.wallInclusiveNanos)),
      h('td', {dataset: {field: 'cpu', value: r.cpuInclusiveNanos === null ? '' : String(r.cpuInclusiveNanos)}}, duration(r.cpuInclusiveNanos)),
      h('td', {}, duration(r.wallExclusiveNanos)),
      h('td', {}, r.handoffWaitNanos === undefined ? '' : duration(r.handoffWaitNanos)),
      t.corrected ? h('td', {}, duration(r.measuredWallInclusiveNanos)) : null));
  });
  return h('table', {class: 'tree', id: 'call-tree'},
    h('thead', {}, h('tr', {}, cols.map((c, i) => h('th', {scope: 'col', class: i === 0 ? 'text' : null}, c)))), h('tbody', {}, trs));
}

/** Hides or shows the rows below row i (deeper rows up to the next one at its depth or above). */
function collapse(button, trs, i, rows) {
  const open = button.getAttribute('aria-expanded') === 'true';
  button.setAttribute('aria-expanded', String(!open));
  button.textContent = open ? '▸' : '▾';
  button.setAttribute('aria-label', `${open ? 'expand' : 'collapse'} ${rows[i].operation}`);
  let hiddenBelow = Infinity; // when re-opening, keep what a collapsed descendant hides
  for (let j = i + 1; j < rows.length && rows[j].depth > rows[i].depth; j++) {
    if (open) { trs[j].hidden = true; continue; }
    if (rows[j].depth > hiddenBelow) continue;
    hiddenBelow = Infinity;
    trs[j].hidden = false;
    const b = trs[j].querySelector('button.toggle');
    if (b && b.getAttribute('aria-expanded') === 'false') hiddenBelow = rows[j].depth;
  }
}

function timeline(t) {
  const ex = t.rows.filter(r => r.kind === 'execution' && r.wallInclusiveNanos !== null);
  if (!ex.length) return empty('No execution of this request has a known duration.');
  const t0 = Math.min(...ex.map(r => r.startOffsetNanos));
  const t1 = Math.max(...ex.map(r => r.startOffsetNanos + r.wallInclusiveNanos));
  const span = Math.max(1, t1 - t0);
  const W = 960, LABEL = 260, L = LABEL + 8, R = 8, rowH = 18, H = ex.length * rowH + 24;
  const x = v => L + ((v - t0) / span) * (W - L - R);
  const svg = s('svg', {class: 'chart', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': `timeline of ${ex.length} executions over ${duration(span)}`});
  ex.forEach((r, i) => {
    const y = i * rowH + 4;
    const w = Math.max(1, x(r.startOffsetNanos + r.wallInclusiveNanos) - x(r.startOffsetNanos));
    const name = r.operation.split('.').slice(-2).join('.');
    svg.append(s('text', {x: 4 + Math.min(r.depth, 8) * 10, y: y + rowH - 7}, name.length > 34 ? name.slice(0, 33) + '…' : name));
    svg.append(s('rect', {class: 'wall', x: x(r.startOffsetNanos), y, width: w, height: rowH - 6, rx: 2},
      s('title', {}, `${r.operation} on ${r.thread}: ${duration(r.wallInclusiveNanos)} wall, starts +${duration(r.startOffsetNanos - t0)}`)));
    if (r.cpuInclusiveNanos !== null && r.wallInclusiveNanos > 0) {
      svg.append(s('rect', {class: 'cpu', x: x(r.startOffsetNanos), y: y + rowH - 9, width: Math.max(1, w * Math.min(1, r.cpuInclusiveNanos / r.wallInclusiveNanos)), height: 3}));
    }
  });
  svg.append(s('text', {x: L, y: H - 4}, '0'), s('text', {x: W - R, y: H - 4, 'text-anchor': 'end'}, duration(span)));
  return h('figure', {class: 'timeline', id: 'trace-timeline'}, h('figcaption', {}, 'Timeline (bar: wall time; thin line: share of CPU time)'), svg);
}
