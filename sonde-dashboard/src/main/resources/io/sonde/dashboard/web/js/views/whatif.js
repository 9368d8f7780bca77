// What-if: the request's CPU demand measured in the log, run through sonde-sim's middleware model
// for a threading strategy, pool size and CPU count over a range of client counts.
import {get} from '../api.js';
import {lineChart} from '../chart.js';
import {empty, errorBox, h} from '../dom.js';
import {duration, number} from '../format.js';

const STRATEGIES = ['thread-pool', 'thread-per-client', 'threaded', 'thread-per-request'];

export async function whatifView({params, navigate}) {
  const demands = await get('/api/demands');
  const title = h('h2', {}, 'What-if: response time and throughput against load');
  if (!demands.length) return [title, empty('This log has no request operation (no execution at depth 0): there is no demand to predict with.')];
  const st = {
    op: params.get('op') || demands[0].operation, strategy: params.get('strategy') || 'thread-pool',
    pool: params.get('pool') || '4', cpus: params.get('cpus') || '1',
    from: params.get('from') || '1', to: params.get('to') || '32', points: params.get('points') || '8',
  };
  const run = params.get('run') === '1';
  const field = (label, input) => h('label', {}, label, input);
  const op = h('select', {id: 'whatif-operation'}, demands.map(d => h('option', {value: d.operation, selected: d.operation === st.op},
    `${d.operation} (CPU ${duration(d.meanCpuNanos)}, wall ${duration(d.meanWallNanos)})`)));
  const strategy = h('select', {id: 'whatif-strategy'}, STRATEGIES.map(x => h('option', {value: x, selected: x === st.strategy}, x)));
  const num = (id, v, min, max) => h('input', {id, type: 'number', min, max, value: v});
  const pool = num('whatif-pool', st.pool, 1, 1024), cpus = num('whatif-cpus', st.cpus, 1, 1024);
  const from = num('whatif-from', st.from, 1, 512), to = num('whatif-to', st.to, 1, 512), points = num('whatif-points', st.points, 1, 16);
  const form = h('form', {class: 'bar', onsubmit: e => {
    e.preventDefault();
    navigate('whatif', {op: op.value, strategy: strategy.value, pool: pool.value, cpus: cpus.value, from: from.value, to: to.value, points: points.value, run: 1});
  }}, field('Request operation', op), field('Threading strategy', strategy), field('Pool size (thread-pool)', pool), field('CPUs', cpus),
  field('Clients from', from), field('to', to), field('Points', points), h('button', {type: 'submit', class: 'primary', id: 'whatif-run'}, 'Predict'));
  const out = [title, h('p', {class: 'note'}, 'The simulator (sonde-sim, the middleware model of the thesis\' ORB threading strategies, calibration profile p3-550-orbacus) takes the request\'s mean CPU time from this log as the servant demand.'), form];
  if (!run) { out.push(empty('Choose the parameters and press Predict (a prediction takes a few seconds).')); return out; }
  let p;
  try {
    p = await get('/api/whatif', {operation: st.op, strategy: st.strategy, poolSize: st.pool, cpus: st.cpus, clientsFrom: st.from, clientsTo: st.to, points: st.points});
  } catch (e) {
    out.push(errorBox(e.message));
    return out;
  }
  const x = p.points.map(v => v.clients);
  const knee = p.points[p.knee];
  const marker = {index: p.knee, label: `knee: ${knee.clients} clients`};
  const rt = lineChart({id: 'whatif-response', title: 'Predicted response time', xLabel: 'clients', yLabel: 'ms', x, marker,
    yFormat: v => number(v, v < 10 ? 2 : 0), xFormat: v => number(v, 0),
    series: [{name: 'mean response time (ms)', values: p.points.map(v => v.responseTimeMs), color: 'var(--s2)'}]});
  const tp = lineChart({id: 'whatif-throughput', title: 'Predicted throughput', xLabel: 'clients', yLabel: 'requests/s', x, marker,
    yFormat: v => number(v, 0), xFormat: v => number(v, 0),
    series: [{name: 'throughput (requests/s)', values: p.points.map(v => v.throughputPerSecond), color: 'var(--s1)'}]});
  const rows = p.points.map((v, i) => h('tr', {class: i === p.knee ? 'selected' : null, dataset: {clients: String(v.clients)}},
    h('td', {}, String(v.clients), i === p.knee ? ' (knee)' : ''), h('td', {}, number(v.responseTimeMs, 3)),
    h('td', {}, number(v.throughputPerSecond, 1)), h('td', {}, v.cpuUtilization === null ? '–' : `${number(v.cpuUtilization * 100, 0)} %`)));
  out.push(h('p', {class: 'note', id: 'whatif-note'}, `${p.note}: ${number(p.servantMs, 3)} ms; ${p.strategy}, ${p.cpus} CPU(s)`
    + (p.strategy === 'thread-pool' ? `, pool of ${p.poolSize}` : '') + `. Knee: ${p.kneeRule}.`),
  h('div', {class: 'charts'}, rt, tp),
  h('table', {id: 'whatif-table'}, h('thead', {}, h('tr', {}, ['Clients', 'Response time (ms)', 'Throughput (/s)', 'CPU'].map(c => h('th', {scope: 'col'}, c)))),
    h('tbody', {}, rows)));
  return out;
}
