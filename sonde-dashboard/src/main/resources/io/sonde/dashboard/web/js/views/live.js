// Live: the monitored-object tree of one agent with its attribute values as they change, a
// sparkline per numeric attribute, and charts of the JVM and system metrics. The dashboard server
// observes the agent with periodic latest-value delivery (one update per period however busy the
// agent is) and forwards it over a WebSocket; the page only draws.
import {lineChart} from '../chart.js';
import {empty, errorBox, h, s} from '../dom.js';
import {chosenAgent, liveInfo, openSocket} from '../live-socket.js';

/** Samples kept per attribute for its sparkline and the charts (one per delivery: 2 min at 1 s). */
const HISTORY = 120;

const CHARTS = [
  {id: 'chart-heap', title: 'Heap used', unit: 'MiB', series: [['jvm/memory/heapUsed', 'heap used', v => v / 1048576], ['jvm/memory/heapCommitted', 'committed', v => v / 1048576]]},
  {id: 'chart-cpu', title: 'CPU load', unit: '%', series: [['jvm/process/cpuLoad', 'process', v => v * 100], ['system/cpu/load', 'system', v => v * 100]]},
  {id: 'chart-threads', title: 'JVM threads', unit: 'threads', series: [['jvm/threads/count', 'threads', v => v], ['jvm/threads/daemon', 'daemon', v => v]]},
  {id: 'chart-gc', title: 'GC time (cumulative)', unit: 'ms', series: [['jvm/gc/time', 'gc time', v => v]]},
];
const COLORS = ['var(--s1)', 'var(--s2)', 'var(--s3)', 'var(--s4)'];

export async function liveView({params, navigate}) {
  const info = await liveInfo();
  if (!info.available) return [h('h2', {}, 'Live'), empty(info.reason)];
  if (!info.agents.length) return [h('h2', {}, 'Live'), empty(info.agentsError || 'No agent to watch yet.')];
  const agent = chosenAgent(info, params);
  const period = Number(params.get('period')) || 1000;

  const status = h('p', {id: 'live-status', class: 'note', role: 'status'}, `Connecting to ${agent}…`);
  const problem = h('div', {id: 'live-problem'});
  const charts = h('div', {class: 'charts', id: 'live-charts'});
  const treeBox = h('div', {id: 'live-tree', class: 'live-tree'}, h('p', {class: 'loading'}, 'Waiting for the tree…'));
  const section = h('section', {id: 'live'});

  const picker = h('form', {class: 'bar', onsubmit: e => { e.preventDefault(); }},
    h('label', {}, 'Agent', h('select', {id: 'live-agent', onchange: e => navigate('live', {agent: e.target.value, period})},
      info.agents.map(a => h('option', {value: a, selected: a === agent}, a)))),
    h('label', {}, 'Update every', h('select', {id: 'live-period', onchange: e => navigate('live', {agent, period: e.target.value})},
      [[500, '0.5 s'], [1000, '1 s'], [2000, '2 s'], [5000, '5 s']].map(([v, t]) => h('option', {value: v, selected: v === period}, t)))));

  const model = newModel();
  let deliveries = 0;
  let lastDelivery = null;
  const alive = () => section.isConnected || !model.started;
  const showStatus = () => {
    status.textContent = `${agent} · periodic delivery every ${period / 1000} s (latest value per attribute) · ${model.attributes.size} attribute(s) · `
      + `${deliveries} update(s)${lastDelivery ? ', last at ' + lastDelivery.toLocaleTimeString() : ''}${model.lost ? ` · ${model.lost} event(s) lost by the agent's queue` : ''}`;
  };

  openSocket(info, {
    alive,
    onOpen: ws => ws.send(JSON.stringify({op: 'watch', agent, pattern: '**', periodMs: period})),
    onClose: text => { problem.replaceChildren(errorBox(text)); },
    onMessage: m => {
      model.started = true;
      if (m.type === 'tree') {
        model.load(m);
        drawTree(treeBox, model);
      } else if (m.type === 'values') {
        for (const v of m.values) model.value(v.path, v.value, v.timeMs);
        model.sample(Date.now());
        refreshValues(treeBox, model);
        drawCharts(charts, model);
      } else if (m.type === 'events') {
        deliveries++;
        lastDelivery = new Date();
        let structure = false;
        for (const e of m.events) {
          if (e.kind === 'VALUE_CHANGED') structure = model.value(e.path, e.value, e.timeMs) || structure;
          else if (e.kind === 'CHILD_ADDED') structure = model.addObject(e.child) || structure;
          else if (e.kind === 'OBJECT_DELETED') { model.remove(e.path); structure = true; }
        }
        model.sample(Date.now());
        if (structure) drawTree(treeBox, model); else refreshValues(treeBox, model);
        drawCharts(charts, model);
      } else if (m.type === 'overflow') {
        model.lost = m.lostTotal;
      } else if (m.type === 'error') {
        problem.replaceChildren(errorBox(m.message));
      }
      showStatus();
    },
  });

  section.append(picker, status, problem, h('h3', {}, 'JVM and system'), charts, h('h3', {}, 'Monitored objects'), treeBox);
  return [h('h2', {}, 'Live'), section];
}

/** The tree as the page knows it: objects by path (with their type) and attributes by path (value, unit, history). */
function newModel() {
  return {
    started: false,
    lost: 0,
    objects: new Map(),
    attributes: new Map(),
    /** When each sample was taken (ms, the page's clock); every numeric attribute's history ends at the last one. */
    times: [],
    open: new Set(['', 'jvm', 'system']),
    load(tree) {
      this.objects.clear();
      this.attributes.clear();
      this.objects.set('', {type: 'root'});
      for (const o of tree.objects) this.objects.set(o.path, {type: o.type});
      for (const a of tree.attributes) this.attributes.set(a.path, {unit: a.unit, type: a.type, description: a.description, sensor: a.sensor, value: undefined, history: []});
      for (const p of [...this.objects.keys(), ...this.attributes.keys()]) this.ensureParents(p);
    },
    ensureParents(path) {
      let added = false;
      for (let p = parent(path); p !== null; p = parent(p)) {
        if (!this.objects.has(p)) { this.objects.set(p, {type: ''}); added = true; }
      }
      return added;
    },
    addObject(path) {
      if (this.objects.has(path)) return false;
      this.objects.set(path, {type: ''});
      this.ensureParents(path);
      return true;
    },
    /** Records a value; true when the attribute was not known (the tree must be drawn again). */
    value(path, value, timeMs) {
      let a = this.attributes.get(path);
      const isNew = !a;
      if (isNew) {
        a = {unit: '', type: typeof value === 'number' ? 'number' : typeof value, description: '', sensor: true, value: undefined, history: []};
        this.attributes.set(path, a);
        this.ensureParents(path);
      }
      a.value = value;
      a.timeMs = timeMs;
      return isNew;
    },
    /**
     * One sample per delivery: every numeric attribute's current value (unchanged values are not
     * delivered, so they are carried forward), so sparklines and charts are on one time axis.
     */
    sample(now) {
      this.times.push(now);
      if (this.times.length > HISTORY) this.times.shift();
      for (const a of this.attributes.values()) {
        if (typeof a.value !== 'number') continue;
        a.history.push(a.value);
        if (a.history.length > HISTORY) a.history.shift();
      }
    },
    remove(path) {
      for (const k of [...this.objects.keys()]) if (k === path || k.startsWith(path + '/')) this.objects.delete(k);
      for (const k of [...this.attributes.keys()]) if (k.startsWith(path + '/')) this.attributes.delete(k);
    },
  };
}

function parent(path) {
  if (path === '') return null;
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

function leaf(path) {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Numeric names in numeric order, the rest as text. */
function byName(a, b) {
  const x = leaf(a), y = leaf(b);
  const nx = /^\d+$/.test(x), ny = /^\d+$/.test(y);
  if (nx && ny) return Number(x) - Number(y);
  if (nx !== ny) return nx ? -1 : 1;
  return x < y ? -1 : x > y ? 1 : 0;
}

function format(value) {
  if (value === undefined) return '…';
  if (value === null) return '–';
  if (typeof value === 'number') return Number.isInteger(value) ? value.toLocaleString('en-US') : value.toPrecision(4);
  return String(value);
}

/** Draws the whole tree (objects as disclosure widgets, attributes as table rows), keeping what was open. */
function drawTree(box, model) {
  // what is open now, also a toggle whose event has not run yet (the tree is drawn again at every structural change)
  for (const d of box.querySelectorAll('details[data-object]')) {
    if (d.open) model.open.add(d.dataset.object); else model.open.delete(d.dataset.object);
  }
  const children = new Map();
  for (const p of model.objects.keys()) if (p !== '') push(children, parent(p), p);
  const attrs = new Map();
  for (const p of model.attributes.keys()) push(attrs, parent(p), p);
  const node = path => {
    const own = (attrs.get(path) || []).sort(byName);
    const kids = (children.get(path) || []).sort(byName);
    const body = [];
    if (own.length) {
      body.push(h('table', {class: 'attrs'},
        h('thead', {}, h('tr', {}, h('th', {scope: 'col', class: 'text'}, 'Attribute'), h('th', {scope: 'col'}, 'Value'),
          h('th', {scope: 'col', class: 'text'}, 'Unit'), h('th', {scope: 'col', class: 'text'}, 'Recent'))),
        h('tbody', {}, own.map(p => attributeRow(p, model.attributes.get(p))))));
    }
    for (const k of kids) body.push(node(k));
    if (path === '') return h('div', {}, body);
    const o = model.objects.get(path);
    const d = h('details', {dataset: {object: path}, open: model.open.has(path)},
      h('summary', {}, h('span', {class: 'obj-name'}, leaf(path)), o.type ? h('span', {class: 'obj-type'}, ` ${o.type}`) : null,
        h('span', {class: 'obj-count'}, ` ${own.length} attribute(s), ${kids.length} object(s)`)),
      body);
    d.addEventListener('toggle', () => { if (d.open) model.open.add(path); else model.open.delete(path); });
    return d;
  };
  if (!model.objects.size && !model.attributes.size) {
    box.replaceChildren(empty('The agent has no monitored objects.'));
    return;
  }
  box.replaceChildren(node(''));
}

function push(map, key, value) {
  if (!map.has(key)) map.set(key, []);
  map.get(key).push(value);
}

function attributeRow(path, a) {
  return h('tr', {dataset: {path}},
    h('td', {class: 'text', title: a.description || null}, leaf(path)),
    h('td', {dataset: {field: 'value', value: a.value === undefined ? '' : String(a.value)}}, format(a.value)),
    h('td', {class: 'text'}, a.unit || ''),
    h('td', {class: 'text', dataset: {field: 'spark'}}, sparkline(a.history)));
}

/** Updates the values and sparklines in place (no re-layout of the tree). */
function refreshValues(box, model) {
  for (const tr of box.querySelectorAll('tr[data-path]')) {
    const a = model.attributes.get(tr.dataset.path);
    if (!a) continue;
    const cell = tr.querySelector('[data-field=value]');
    const text = a.value === undefined ? '' : String(a.value);
    if (cell.dataset.value !== text) {
      cell.dataset.value = text;
      cell.textContent = format(a.value);
      tr.querySelector('[data-field=spark]').replaceChildren(sparkline(a.history));
    }
  }
}

/** A small SVG line of the last values (nothing for fewer than two numbers). */
function sparkline(values) {
  if (values.length < 2) return '';
  const W = 120, H = 22;
  const min = Math.min(...values), max = Math.max(...values);
  const y = v => (max === min ? H / 2 : H - 2 - ((v - min) / (max - min)) * (H - 4));
  const d = values.map((v, i) => `${i ? 'L' : 'M'}${((i / (values.length - 1)) * W).toFixed(1)},${y(v).toFixed(1)}`).join('');
  return s('svg', {class: 'spark', viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img', 'aria-label': `last ${values.length} values, from ${format(min)} to ${format(max)}`},
    s('path', {d, class: 'spark-line'}));
}

function drawCharts(box, model) {
  const figures = [];
  for (const c of CHARTS) {
    const series = c.series.filter(([p]) => model.attributes.has(p)).map(([p, name, f], i) => ({name, values: model.attributes.get(p).history.map(f), color: COLORS[i]}));
    if (!series.length || !series.some(sr => sr.values.length)) continue;
    // every history ends at the last sample; a shorter one (an attribute seen later) is padded at the start
    const n = Math.max(...series.map(sr => sr.values.length));
    const now = model.times[model.times.length - 1];
    const x = model.times.slice(-n).map(t => (t - now) / 1000);
    for (const sr of series) sr.values = Array(n - sr.values.length).fill(null).concat(sr.values);
    figures.push(lineChart({id: c.id, title: c.title, xLabel: 'seconds ago', yLabel: c.unit, x, series}));
  }
  if (!figures.length) box.replaceChildren(empty('This agent shows no jvm/ or system/ metrics.'));
  else box.replaceChildren(...figures);
}
