// Operations, live range (a collector's dashboard): per agent and operation the calls, errors and
// latency percentiles per second, pushed by the collector over a WebSocket once a second (only the
// seconds that changed) and kept here for the chosen range.
import {lineChart} from '../chart.js';
import {empty, errorBox, h} from '../dom.js';
import {count, duration, number} from '../format.js';
import {openSocket} from '../live-socket.js';

/** The ranges offered when the server gives none. */
const RANGES = [60, 300, 900];
/** The rate column: mean calls per second over this many whole seconds before the newest. */
const RATE_SECONDS = 10;

const rangeName = s => (s % 60 === 0 ? `${s / 60} min` : `${s} s`);

/**
 * The range bar of the operations page: the archive, or (with a collector) the live ranges; a
 * dashboard without a collector says why there is no live range.
 */
export function rangeBar(info, params, navigate) {
  const live = params.get('range') === 'live';
  const last = Number(params.get('last')) || RANGES[0];
  const button = (label, pressed, go, id) => h('button', {type: 'button', id, 'aria-pressed': String(pressed), onclick: go}, label);
  const items = [button('Archive', !live, () => navigate('operations', {op: params.get('op')}), 'range-archive')];
  if (info.available) {
    for (const r of info.rangesSeconds || RANGES) {
      items.push(button(`Live: last ${rangeName(r)}`, live && last === r,
        () => navigate('operations', {range: 'live', last: r, op: params.get('op'), agent: params.get('agent')}), `range-live-${r}`));
    }
  } else {
    items.push(h('span', {class: 'note', id: 'range-live-unavailable'}, `Live: not offered here (${info.reason})`));
  }
  return h('div', {class: 'bar range-bar', role: 'group', 'aria-label': 'Time range'}, h('span', {class: 'note'}, 'Range'), items);
}

/** The live range's view: a table per agent and operation and the chosen one's charts, updated without reload. */
export function liveOperationsView({params, navigate, info}) {
  const title = h('h2', {}, 'Operations · live');
  const bar = rangeBar(info, params, navigate);
  if (!info.available) return [title, bar, empty(`Live operations are not offered: ${info.reason}`)];
  const range = Number(params.get('last')) || RANGES[0];
  const status = h('p', {id: 'live-operations-status', class: 'note', role: 'status'}, 'Connecting to the collector…');
  const problem = h('div', {});
  const tableBox = h('div', {id: 'live-operations-box'}, h('p', {class: 'loading'}, 'Waiting for the first delivery…'));
  const detail = h('section', {id: 'live-operation-detail', 'aria-live': 'off'});
  const section = h('section', {id: 'live-operations'}, status, problem, h('div', {class: 'split'}, tableBox, detail));
  // per row ("agent\u0000operation"): second -> {calls, errors, p50, p95, p99, max, sealed}
  const rows = new Map();
  const model = {newest: -1, deliveries: 0, late: 0, other: 0, started: false};
  const alive = () => section.isConnected || !model.started;
  openSocket(info, {
    alive,
    onOpen: ws => { model.started = true; ws.send(JSON.stringify({op: 'subscribe', rangeSeconds: range, periodMs: info.periodMs || 1000})); },
    onClose: text => problem.replaceChildren(errorBox(text)),
    onMessage: m => {
      if (m.type === 'error') { problem.replaceChildren(errorBox(m.message)); return; }
      if (m.type !== 'operations') return;
      if (m.full) rows.clear();
      for (const s of m.seconds) {
        const key = `${s.agent}\u0000${s.operation}`;
        if (!rows.has(key)) rows.set(key, new Map());
        rows.get(key).set(s.second, s);
      }
      model.newest = m.newestSecond;
      model.deliveries++;
      model.late = m.late;
      model.other = m.other;
      const from = model.newest - range + 1;
      for (const seconds of rows.values()) for (const sec of seconds.keys()) if (sec < from) seconds.delete(sec);
      draw();
    },
  });

  function draw() {
    const from = model.newest - range + 1;
    const summaries = [...rows.entries()].map(([key, seconds]) => summarize(key, seconds, model.newest)).filter(r => r.calls > 0)
      .sort((a, b) => b.calls - a.calls || a.operation.localeCompare(b.operation));
    const when = model.newest >= 0 ? new Date(model.newest * 1000).toISOString().slice(11, 19) + ' UTC' : 'none yet';
    status.textContent = `Live from the collector, last ${rangeName(range)}: newest second ${when}; ${count(model.deliveries)} update(s), `
      + 'delivered at most once a second with only what changed.'
      + (model.late ? ` ${count(model.late)} execution(s) arrived after their second was closed and are not counted.` : '')
      + (model.other ? ` ${count(model.other)} execution(s) of operations beyond the collector's cap are in "(other operations)".` : '');
    status.dataset.newestSecond = String(model.newest);
    status.dataset.deliveries = String(model.deliveries);
    status.dataset.late = String(model.late);
    if (!summaries.length) {
      tableBox.replaceChildren(empty(`No execution ended in the last ${rangeName(range)}: no agent has sent data, or its probes are quiet.`));
      detail.replaceChildren();
      return;
    }
    const chosen = summaries.find(r => r.operation === params.get('op') && (!params.get('agent') || r.agent === params.get('agent'))) || summaries[0];
    const head = h('tr', {}, ['Agent', 'Operation'].map(l => h('th', {class: 'text', scope: 'col'}, l)),
      ['Calls', 'Errors', `Calls/s (last ${RATE_SECONDS} s)`, 'p50', 'p95', 'p99', 'Max'].map(l => h('th', {scope: 'col'}, l)));
    const body = summaries.map(r => h('tr', {class: r === chosen ? 'selected' : null, dataset: {operation: r.operation, agent: r.agent}},
      h('td', {class: 'name', title: r.agent}, r.agent.length > 8 ? r.agent.slice(0, 8) + '…' : r.agent),
      h('td', {class: 'name'}, h('button', {type: 'button', class: 'row-button', 'aria-pressed': String(r === chosen),
        onclick: () => navigate('operations', {range: 'live', last: range, op: r.operation, agent: r.agent})}, r.operation)),
      cell('calls', r.calls, count), cell('errors', r.errors, count), cell('rate', r.rate, v => number(v, 1)),
      cell('p50', r.latest && r.latest.p50, duration), cell('p95', r.latest && r.latest.p95, duration),
      cell('p99', r.latest && r.latest.p99, duration), cell('max', r.max, duration)));
    tableBox.replaceChildren(h('table', {id: 'live-operations-table'},
      h('caption', {class: 'note', style: 'text-align:left'}, `Executions that ended in the last ${rangeName(range)}, per agent and operation;`
        + ' p50, p95 and p99 of the latest second with calls (nearest rank, as the archive view), the maximum over the range.'),
      h('thead', {}, head), h('tbody', {}, body)));
    drawDetail(chosen, rows.get(`${chosen.agent}\u0000${chosen.operation}`), from);
  }

  function drawDetail(r, seconds, from) {
    const x = [], rate = [], errors = [], p50 = [], p95 = [], p99 = [];
    for (let sec = from; sec <= model.newest; sec++) {
      const s = seconds.get(sec);
      x.push(sec - model.newest);
      rate.push(s ? s.calls : 0);
      errors.push(s ? s.errors : 0);
      const ms = v => (s ? v / 1e6 : null);
      p50.push(ms(s && s.p50)); p95.push(ms(s && s.p95)); p99.push(ms(s && s.p99));
    }
    const xLabel = 'seconds before the newest second';
    const charts = h('div', {class: 'charts'},
      lineChart({id: 'live-rate-chart', title: 'Calls per second', xLabel, yLabel: 'calls/s', x, series: [{name: 'calls/s', values: rate, color: 'var(--s1)'}]}),
      lineChart({id: 'live-latency-chart', title: 'Latency per second', xLabel, yLabel: 'ms', x, series: [
        {name: 'p50', values: p50, color: 'var(--s1)'}, {name: 'p95', values: p95, color: 'var(--s2)'}, {name: 'p99', values: p99, color: 'var(--s4)'}]}),
      lineChart({id: 'live-errors-chart', title: 'Errors per second', xLabel, yLabel: 'errors/s', x, series: [{name: 'errors/s', values: errors, color: 'var(--knee)'}]}));
    // the same numbers as a table (newest first), for reading and for the keyboard
    const list = [...seconds.values()].sort((a, b) => b.second - a.second).map(s => h('tr', {dataset: {second: String(s.second), sealed: String(s.sealed)}},
      h('td', {class: 'text'}, new Date(s.second * 1000).toISOString().slice(11, 19)), cell('calls', s.calls, count), cell('errors', s.errors, count),
      cell('p50', s.p50, duration), cell('p95', s.p95, duration), cell('p99', s.p99, duration), cell('max', s.max, duration)));
    const table = h('details', {id: 'live-seconds'}, h('summary', {}, `Per second (${list.length} second(s) with calls)`),
      h('table', {}, h('thead', {}, h('tr', {}, h('th', {class: 'text', scope: 'col'}, 'Second (UTC)'),
        ['Calls', 'Errors', 'p50', 'p95', 'p99', 'Max'].map(l => h('th', {scope: 'col'}, l)))), h('tbody', {}, list)));
    const open = detail.querySelector('#live-seconds')?.open;
    if (open) table.open = true;
    detail.replaceChildren(h('h3', {}, `${r.operation} (agent ${r.agent}), live`), charts, table);
  }

  return [title, bar, section];
}

function cell(field, v, f) {
  return h('td', {dataset: {field, value: v === null || v === undefined ? '' : String(v)}}, f(v));
}

/** One row's totals over the range, its rate over the last whole seconds, and its latest second with calls. */
function summarize(key, seconds, newest) {
  const [agent, operation] = key.split('\u0000');
  let calls = 0, errors = 0, max = 0, recent = 0, latest = null;
  for (const s of seconds.values()) {
    calls += s.calls;
    errors += s.errors;
    max = Math.max(max, s.max);
    if (s.second < newest && s.second >= newest - RATE_SECONDS) recent += s.calls;
    if (!latest || s.second > latest.second) latest = s;
  }
  return {agent, operation, calls, errors, max, latest, rate: recent / RATE_SECONDS};
}
