// The dashboard's entry: theme, the page router (state lives in the address's hash, so every view
// can be bookmarked and shared), and the log summary in the header.
import {get} from './api.js';
import {errorBox, h} from './dom.js';
import {count, duration} from './format.js';
import {agentsView} from './views/agents.js';
import {liveView} from './views/live.js';
import {probesView} from './views/probes.js';
import {operationsView} from './views/operations.js';
import {tracesView} from './views/traces.js';
import {whatifView} from './views/whatif.js';

const VIEWS = {agents: agentsView, live: liveView, probes: probesView, operations: operationsView, traces: tracesView, whatif: whatifView};

/** The current route: #/page?key=value… (no page: the live page of a live-only dashboard, else operations) */
export function route() {
  const hash = location.hash.replace(/^#\/?/, '');
  const [page, query] = hash.split('?');
  const fallback = summary && summary.source === 'live' ? 'live' : 'operations';
  return {page: VIEWS[page] ? page : fallback, params: new URLSearchParams(query || '')};
}

/** Moves to a page with parameters (empty values left out); the hashchange renders it. */
export function navigate(page, params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) if (v !== null && v !== undefined && v !== '') q.set(k, v);
  const next = `#/${page}${[...q].length ? '?' + q : ''}`;
  if (location.hash === next) render(); else location.hash = next;
}

let summary = null;
let renderCount = 0;

let live = null;

async function render() {
  // what the header shows depends on the server: ask once (the live pages exist with --observe)
  if (!summary) {
    try { summary = await get('/api/log'); } catch (e) { /* the view shows the error */ }
  }
  if (!live) {
    try { live = await get('/api/live'); } catch (e) { live = {available: false}; }
    document.getElementById('nav-live-item').hidden = !live.available;
    document.getElementById('nav-probes-item').hidden = !live.available;
  }
  const {page, params} = route();
  const main = document.getElementById('main');
  for (const a of document.querySelectorAll('.top nav a')) {
    if (a.id === `nav-${page}`) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  }
  const mine = ++renderCount;
  main.setAttribute('aria-busy', 'true');
  main.replaceChildren(h('p', {class: 'loading', role: 'status'}, 'Loading…'));
  try {
    // a recorded log never changes; a collector's archive grows, so ask again at every page
    if (!summary || summary.source === 'collector') summary = await get('/api/log');
    const content = await VIEWS[page]({params, summary, navigate});
    if (mine !== renderCount) return; // a newer navigation won
    main.replaceChildren(...[content].flat());
  } catch (e) {
    if (mine !== renderCount) return;
    main.replaceChildren(errorBox(e.message));
  } finally {
    if (mine === renderCount) {
      main.setAttribute('aria-busy', 'false');
      document.body.dataset.page = page;
      document.body.dataset.rendered = String(mine);
      document.body.dataset.renderedAt = String(performance.now()); // read by the render benchmark
    }
  }
  showSource();
}

function showSource() {
  const el = document.getElementById('source');
  if (!summary) return;
  document.getElementById('nav-agents-item').hidden = summary.source !== 'collector';
  for (const li of document.querySelectorAll('.log-page')) li.hidden = summary.source === 'live';
  if (summary.source === 'live') {
    el.textContent = 'Live: no recorded log (started with --observe only)';
    return;
  }
  if (summary.source === 'collector' && !summary.inputs.length) {
    el.textContent = 'Collector: nothing archived yet';
    return;
  }
  const where = summary.inputs.length === 1 ? summary.inputs[0] : `${summary.inputs.length} files`;
  el.textContent = `${summary.source === 'collector' ? 'Collector archive' : 'Log'} ${where} · ${summary.agents.length} agent(s) · ${duration(summary.durationNanos)} · `
    + `${count(summary.executions)} executions${summary.partial ? ' · PARTIAL: some input could not be read' : ''}`;
}

function setupTheme() {
  const button = document.getElementById('theme');
  const dark = () => document.documentElement.dataset.theme === 'dark'
    || (!document.documentElement.dataset.theme && matchMedia('(prefers-color-scheme: dark)').matches);
  const show = () => {
    button.setAttribute('aria-pressed', String(dark()));
    button.textContent = dark() ? 'Light theme' : 'Dark theme';
  };
  button.addEventListener('click', () => {
    const next = dark() ? 'light' : 'dark';
    document.documentElement.dataset.theme = next;
    try { localStorage.setItem('sonde-theme', next); } catch (e) { /* private mode */ }
    show();
  });
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', show);
  show();
}

setupTheme();
window.addEventListener('hashchange', render);
// a view that refreshes itself (agents) asks for the header to follow
window.addEventListener('sonde:refresh-source', async () => {
  try { summary = await get('/api/log'); showSource(); } catch (e) { /* the view shows the error */ }
});
render();
