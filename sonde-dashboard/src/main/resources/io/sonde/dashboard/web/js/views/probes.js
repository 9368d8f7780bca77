// Probes: list the agent's method probes (state, and who set it), switch them on and off by pattern,
// and suspend and resume its sensors, through the observe protocol. Listing is read-only and uses the
// dashboard's own connection; every action needs the agent's observe token, typed here: the page
// keeps it in memory only (never in the address or storage), the dashboard server forwards it with
// the one request and keeps none.
import {get} from '../api.js';
import {empty, errorBox, h} from '../dom.js';
import {chosenAgent, liveInfo, openSocket} from '../live-socket.js';

/** Probes per page of the listing (the protocol's pages hold at most 1000). */
const PAGE = 200;

export async function probesView({params, summary, navigate}) {
  const info = await liveInfo();
  if (!info.available) return [h('h2', {}, 'Probes'), empty(info.reason)];
  if (!info.agents.length) return [h('h2', {}, 'Probes'), empty(info.agentsError || 'No agent to act on yet.')];
  const agent = chosenAgent(info, params);
  const section = h('section', {id: 'probes'});
  const outcome = h('div', {id: 'probes-outcome', 'aria-live': 'polite'});
  const history = h('tbody', {id: 'probes-history'});
  const pending = new Map();
  let nextId = 1;
  let socket = null;
  let seen = false;
  const alive = () => { if (section.isConnected) seen = true; return section.isConnected || !seen; };

  const ready = new Promise(resolve => {
    socket = openSocket(info, {
      alive,
      onOpen: () => resolve(true),
      onClose: text => { resolve(false); outcome.replaceChildren(errorBox(text)); },
      onMessage: m => {
        if ((m.type === 'result' || m.type === 'error' || m.type === 'probes') && pending.has(m.id)) {
          pending.get(m.id)(m);
          pending.delete(m.id);
        }
      },
    });
  });

  /** Sends one request over the page's socket; resolves with its answer (null: no socket). */
  const ask = async request => {
    if (!(await ready)) return null;
    const id = nextId++;
    const answer = new Promise(resolve => pending.set(id, resolve));
    socket.send(JSON.stringify({...request, id, agent}));
    return answer;
  };

  // the agent's probes, a page at a time; reloaded after every switch made here
  const listPattern = h('input', {id: 'probe-filter', type: 'text', size: 40, placeholder: '* or com.shop.*', value: params.get('list') || '*'});
  const listBody = h('tbody', {id: 'probe-list-body'});
  const listState = h('p', {class: 'note', id: 'probe-list-state', role: 'status'}, 'Loading the agent\'s probes…');
  const pager = h('div', {class: 'bar', id: 'probe-list-pager'});
  let offset = 0;
  const showPage = async at => {
    const pattern = listPattern.value.trim() || '*';
    const m = await ask({op: 'probes', pattern, offset: at, limit: PAGE});
    if (!m) return;
    if (m.type !== 'probes') {
      listBody.replaceChildren();
      pager.replaceChildren();
      listState.replaceChildren(h('span', {class: 'error', id: 'probe-list-error'}, m.message));
      return;
    }
    offset = m.offset;
    listBody.replaceChildren(...m.probes.map(p => h('tr', {dataset: {name: p.name, signature: p.signature, on: String(p.on)}},
      h('td', {class: 'text', dataset: {field: 'state'}}, p.on ? 'on' : 'off'),
      h('td', {class: 'text'}, h('button', {type: 'button', class: 'row-button', title: 'Use as the probe pattern',
        onclick: () => { probePattern.value = p.name; probePattern.focus(); }}, p.name)),
      h('td', {class: 'text'}, p.signature),
      h('td', {class: 'text', dataset: {field: 'origin'}}, p.origin.toLowerCase()),
      h('td', {class: 'text', dataset: {field: 'detail'}}, p.detail))));
    const shown = m.probes.length;
    listState.textContent = m.total === 0 ? `No probe matches ${pattern}.`
      : `${shown ? `${m.offset + 1}–${m.offset + shown}` : 'none'} of ${m.total} probe(s) matching ${pattern}.`;
    pager.replaceChildren(
      ...(m.offset > 0 ? [h('button', {type: 'button', id: 'probe-list-previous', onclick: () => showPage(Math.max(0, m.offset - PAGE))}, 'Previous page')] : []),
      ...(m.truncated ? [h('button', {type: 'button', id: 'probe-list-next', onclick: () => showPage(m.offset + shown)}, 'Next page')] : []));
  };

  const token = h('input', {id: 'probes-token', type: 'password', autocomplete: 'off', spellcheck: 'false', required: true, size: 36});
  const act = async (action, pattern) => {
    if (!pattern.trim()) { outcome.replaceChildren(errorBox('Give a pattern.')); return; }
    if (!token.value) { outcome.replaceChildren(errorBox('Type the agent\'s observe token first: every action needs it.')); token.focus(); return; }
    outcome.replaceChildren(h('p', {class: 'loading', role: 'status'}, `${action} ${pattern}…`));
    const m = await ask({op: 'manage', action, pattern: pattern.trim(), token: token.value});
    if (!m) return;
    const ok = m.type === 'result' && m.ok;
    outcome.replaceChildren(ok ? h('p', {class: 'ok', role: 'status', id: 'probes-ok'}, m.message)
      : h('p', {class: 'error', role: 'alert', id: 'probes-refused'}, m.message));
    history.prepend(h('tr', {dataset: {ok: String(ok)}}, h('td', {class: 'text'}, new Date().toLocaleTimeString()),
      h('td', {class: 'text'}, action), h('td', {class: 'text'}, pattern.trim()), h('td', {class: 'text'}, m.message)));
    if (ok && action.startsWith('probes')) await showPage(offset); // the switched probes show their new state
  };

  const probePattern = h('input', {id: 'probe-pattern', type: 'text', size: 40, placeholder: 'com.shop.Cart.* or *.tick', value: params.get('pattern') || ''});
  const sensorPattern = h('input', {id: 'sensor-pattern', type: 'text', size: 30, placeholder: 'shop/orders/** or jvm/**'});
  const button = (id, label, action, input) => h('button', {type: 'button', id, onclick: () => act(action, input.value)}, label);

  section.append(
    h('p', {class: 'note', id: 'probes-who'}, info.who),
    h('form', {class: 'bar', onsubmit: e => e.preventDefault()},
      info.agents.length > 1 ? h('label', {}, 'Agent', h('select', {onchange: e => navigate('probes', {agent: e.target.value})},
        info.agents.map(a => h('option', {value: a, selected: a === agent}, a)))) : h('p', {class: 'note'}, `Agent ${agent}`),
      h('label', {for: 'probes-token'}, 'Observe token (kept in this page only)', token)),
    h('h3', {}, 'Method probes'),
    h('form', {class: 'bar', onsubmit: e => e.preventDefault()},
      h('label', {for: 'probe-pattern'}, 'Probe pattern: <class>.<method>, wildcards * and ?', probePattern),
      button('probes-off', 'Switch off', 'probes-off', probePattern), button('probes-on', 'Switch on', 'probes-on', probePattern)),
    h('h3', {}, 'Probes of the agent'),
    h('form', {class: 'bar', onsubmit: e => { e.preventDefault(); showPage(0); }},
      h('label', {for: 'probe-filter'}, 'List the probes matching', listPattern),
      h('button', {type: 'submit', id: 'probe-list-button'}, 'List')),
    listState,
    h('table', {id: 'probe-list'}, h('thead', {}, h('tr', {}, ['State', 'Probe', 'Signature', 'Set by', 'Why']
      .map(c => h('th', {scope: 'col', class: 'text'}, c)))), listBody),
    pager,
    h('h3', {}, 'Sensors'),
    h('form', {class: 'bar', onsubmit: e => e.preventDefault()},
      h('label', {for: 'sensor-pattern'}, 'Sensor path pattern', sensorPattern),
      button('sensors-suspend', 'Suspend', 'suspend', sensorPattern), button('sensors-resume', 'Resume', 'resume', sensorPattern)),
    outcome,
    h('h3', {}, 'Actions from this page'),
    h('table', {id: 'probes-actions'}, h('thead', {}, h('tr', {}, ['Time', 'Action', 'Pattern', 'Answer'].map(c => h('th', {scope: 'col', class: 'text'}, c)))), history),
    await knownProbes(summary, name => { probePattern.value = name; probePattern.focus(); }));
  showPage(0);
  return [h('h2', {}, 'Probes'), section];
}

/**
 * With a log or archive, also the operations it recorded (one per probed method, of every agent that
 * wrote it) to pick from; the live listing above is the chosen agent's own.
 */
async function knownProbes(summary, pick) {
  if (!summary || summary.source === 'live') return h('span', {});
  let ops;
  try { ops = await get('/api/operations'); } catch (e) { return errorBox(e.message); }
  if (!ops.length) return empty('No operation recorded yet.');
  return h('div', {}, h('h3', {}, 'Probed methods seen in the log'),
    h('ul', {class: 'probe-list'}, ops.slice(0, 200).map(o => h('li', {}, h('button', {type: 'button', class: 'row-button', onclick: () => pick(o.operation)}, o.operation)))));
}
