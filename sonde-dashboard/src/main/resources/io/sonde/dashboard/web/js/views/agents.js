// Agents (collector only): every agent the collector knows, its connection status and what it sent.
// The table refreshes itself every few seconds while the page is shown.
import {get} from '../api.js';
import {empty, errorBox, h} from '../dom.js';
import {count} from '../format.js';

const REFRESH_MS = 3000;
/** The collector's rate window (RecentRate.WINDOW_SECONDS). */
const RATE_WINDOW_S = 10;

function rate(x) {
  return x === null || x === undefined ? '–' : x < 10 ? x.toFixed(1) : Math.round(x).toLocaleString('en-US');
}

export async function agentsView() {
  const section = h('section', {id: 'agents'});
  await fill(section);
  const timer = setInterval(async () => {
    if (document.body.dataset.page !== 'agents' || !section.isConnected) { clearInterval(timer); return; }
    await fill(section);
    window.dispatchEvent(new Event('sonde:refresh-source'));
  }, REFRESH_MS);
  return [h('h2', {}, 'Agents'), section];
}

async function fill(section) {
  let agents;
  try {
    agents = await get('/api/agents');
  } catch (e) {
    section.replaceChildren(errorBox(e.message));
    return;
  }
  if (!agents.length) {
    section.replaceChildren(empty('No agent has connected yet. Point one at the collector, e.g. '
      + '-javaagent:sonde-agent.jar=include=com.acme.*,writer=tcp,tcp.host=127.0.0.1,tcp.port=PORT'));
    return;
  }
  const when = ms => new Date(ms).toLocaleTimeString();
  const rows = agents.map(a => h('tr', {dataset: {agent: a.id}},
    h('td', {class: 'text'}, a.id), h('td', {class: 'text'}, `${a.host} (pid ${a.pid})`),
    h('td', {class: 'text', dataset: {field: 'status'}}, a.status), h('td', {}, count(a.connections)),
    h('td', {dataset: {field: 'frames', value: String(a.frames)}}, count(a.frames)), h('td', {}, count(a.bytes)),
    h('td', {dataset: {field: 'records', value: String(a.records)}}, a.records < 0 ? '–' : count(a.records)),
    h('td', {dataset: {field: 'records-rate'}}, rate(a.recordsPerSecond)),
    h('td', {dataset: {field: 'dropped', value: String(a.droppedRecords)}}, a.droppedRecords < 0 ? '–' : count(a.droppedRecords)),
    h('td', {}, rate(a.droppedPerSecond)),
    h('td', {}, count(a.missingFrames)), h('td', {}, when(a.firstSeenMillis)), h('td', {}, when(a.lastSeenMillis))));
  section.replaceChildren(h('table', {id: 'agents-table'},
    h('thead', {}, h('tr', {}, ['Agent', 'Process', 'Status', 'Connections', 'Frames', 'Bytes', 'Records', 'Records/s', 'Dropped', 'Dropped/s', 'Frames missing', 'First seen', 'Last seen']
      .map((c, i) => h('th', {scope: 'col', class: i < 3 ? 'text' : null}, c)))),
    h('tbody', {}, rows)),
  h('p', {class: 'note'}, `Refreshed every ${REFRESH_MS / 1000} s. Records and drops (the records the agent reports it dropped) are counted by the collector as frames arrive; `
    + `the rates are means over the last ${RATE_WINDOW_S} s. The other pages show the archive, read again when it has grown (at most every 5 s).`));
}
