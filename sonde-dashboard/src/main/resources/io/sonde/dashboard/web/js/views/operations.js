// Operations: per-operation statistics of the whole log, and one operation's rate and latency over time.
import {get} from '../api.js';
import {lineChart} from '../chart.js';
import {empty, errorBox, h} from '../dom.js';
import {count, duration} from '../format.js';
import {liveOperationsView, rangeBar} from './live-operations.js';

const COLUMNS = [
  ['count', 'Calls', count], ['errors', 'Errors', count], ['mean', 'Mean', duration], ['p50', 'p50', duration],
  ['p90', 'p90', duration], ['p99', 'p99', duration], ['max', 'Max', duration], ['total', 'Total', duration],
];

/** Rows drawn at first; a log with thousands of operations shows the busiest, a filter and "show all". */
const SHOWN = 200;

export async function operationsView({params, navigate}) {
  // the live range needs a collector; /api/live-operations says whether this server has one
  const live = await get('/api/live-operations');
  if (params.get('range') === 'live') return liveOperationsView({params, navigate, info: live});
  const ops = await get('/api/operations');
  const title = h('h2', {}, 'Operations');
  const bar = rangeBar(live, params, navigate);
  if (!ops.length) return [title, bar, empty('This log holds no completed execution: nothing to show. Record a run (for example with "sonde demo") and open its folder.')];
  const selected = ops.find(o => o.operation === params.get('op')) ? params.get('op') : ops[0].operation;
  const filter = params.get('filter') || '';
  const all = params.get('all') === '1';
  const matching = filter ? ops.filter(o => o.operation.toLowerCase().includes(filter.toLowerCase())) : ops;
  const shown = all ? matching : matching.slice(0, SHOWN);
  const state = {op: selected, filter, all: all ? 1 : null};
  const head = h('tr', {}, h('th', {class: 'text', scope: 'col'}, 'Operation'), COLUMNS.map(([, label]) => h('th', {scope: 'col'}, label)));
  const rows = shown.map(o => h('tr', {class: o.operation === selected ? 'selected' : null, dataset: {operation: o.operation}},
    h('td', {class: 'name'}, h('button', {type: 'button', class: 'row-button', 'aria-pressed': String(o.operation === selected),
      onclick: () => navigate('operations', {...state, op: o.operation})}, o.operation)),
    COLUMNS.map(([k, , f]) => h('td', {dataset: {field: k, value: o[k] === null ? '' : String(o[k])}}, f(o[k])))));
  const caption = `${ops.length} operation(s), by total exclusive time`
    + (filter ? `; ${matching.length} contain "${filter}"` : '') + (shown.length < matching.length ? `; the first ${shown.length} shown` : '')
    + '. Inclusive wall time; percentiles by the nearest-rank rule, as "sonde analyze" computes them.';
  const table = h('table', {id: 'operations-table'}, h('caption', {class: 'note', style: 'text-align:left', id: 'operations-caption',
    dataset: {operations: String(ops.length), shown: String(shown.length)}}, caption), h('thead', {}, head), h('tbody', {}, rows));
  const filterBox = h('input', {id: 'operations-filter', type: 'search', value: filter, placeholder: 'part of a name', 'aria-label': 'Filter operations by name'});
  const tools = h('form', {class: 'bar', role: 'search', onsubmit: e => {
    e.preventDefault();
    navigate('operations', {...state, filter: filterBox.value});
  }}, h('label', {}, 'Filter', filterBox), h('button', {type: 'submit'}, 'Filter'),
  shown.length < matching.length
    ? h('button', {type: 'button', id: 'operations-all', onclick: () => navigate('operations', {...state, all: 1})}, `Show all ${matching.length}`)
    : null);
  const detail = h('section', {id: 'operation-detail', 'aria-live': 'polite'}, h('p', {class: 'loading'}, 'Loading the time series…'));
  fillDetail(detail, selected);
  const parts = [title, bar];
  if (ops.length > SHOWN) parts.push(tools);
  if (!shown.length) parts.push(empty(`No operation contains "${filter}".`));
  parts.push(h('div', {class: 'split'}, shown.length ? table : null, detail));
  return parts;
}

async function fillDetail(section, operation) {
  try {
    const ts = await get('/api/timeseries', {operation});
    const b = ts.buckets;
    const heading = h('h3', {}, `${operation} over time`);
    if (!b.length) { section.replaceChildren(heading, empty('No execution of this operation lies on the timeline (all started before the log\'s first frame).')); return; }
    const x = b.map(v => v.startOffsetNanos / 1e9);
    const ms = v => (v === null ? null : v / 1e6);
    const latency = lineChart({id: 'latency-chart', title: `Latency per ${duration(ts.bucketNanos)} bucket`, xLabel: 'seconds since the log start', yLabel: 'ms',
      x,
      series: [
        {name: 'p50', values: b.map(v => ms(v.p50)), color: 'var(--s1)'},
        {name: 'p90', values: b.map(v => ms(v.p90)), color: 'var(--s2)'},
        {name: 'p99', values: b.map(v => ms(v.p99)), color: 'var(--s4)'},
        {name: 'mean', values: b.map(v => ms(v.mean)), color: 'var(--s3)'},
      ]});
    const rate = lineChart({id: 'rate-chart', title: 'Calls per second', xLabel: 'seconds since the log start', yLabel: 'calls/s',
      x,
      series: [{name: 'calls/s', values: b.map(v => v.callsPerSecond), color: 'var(--s1)'}]});
    const total = b.reduce((a, v) => a + v.calls, 0);
    section.replaceChildren(heading, h('p', {class: 'note'}, `${count(total)} call(s) on the timeline in ${b.length} bucket(s) of ${duration(ts.bucketNanos)}.`),
      h('div', {class: 'charts'}, latency, rate));
  } catch (e) {
    section.replaceChildren(errorBox(e.message));
  }
}
