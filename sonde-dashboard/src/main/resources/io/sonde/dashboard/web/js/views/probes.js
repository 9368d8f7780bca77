// Probes: switch the agent's method probes on and off by pattern, and suspend and resume its
// sensors, through the observe protocol's management requests. Every action needs the agent's
// observe token, typed here: the page keeps it in memory only (never in the address or storage),
// the dashboard server forwards it with the one request and keeps none.
import {get} from '../api.js';
import {empty, errorBox, h} from '../dom.js';
import {chosenAgent, liveInfo, openSocket} from '../live-socket.js';

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
        if ((m.type === 'result' || m.type === 'error') && pending.has(m.id)) {
          pending.get(m.id)(m);
          pending.delete(m.id);
        }
      },
    });
  });

  const token = h('input', {id: 'probes-token', type: 'password', autocomplete: 'off', spellcheck: 'false', required: true, size: 36});
  const act = async (action, pattern) => {
    if (!pattern.trim()) { outcome.replaceChildren(errorBox('Give a pattern.')); return; }
    if (!token.value) { outcome.replaceChildren(errorBox('Type the agent\'s observe token first: every action needs it.')); token.focus(); return; }
    if (!(await ready)) return;
    const id = nextId++;
    const answer = new Promise(resolve => pending.set(id, resolve));
    outcome.replaceChildren(h('p', {class: 'loading', role: 'status'}, `${action} ${pattern}…`));
    socket.send(JSON.stringify({op: 'manage', id, agent, action, pattern: pattern.trim(), token: token.value}));
    const m = await answer;
    const ok = m.type === 'result' && m.ok;
    outcome.replaceChildren(ok ? h('p', {class: 'ok', role: 'status', id: 'probes-ok'}, m.message)
      : h('p', {class: 'error', role: 'alert', id: 'probes-refused'}, m.message));
    history.prepend(h('tr', {dataset: {ok: String(ok)}}, h('td', {class: 'text'}, new Date().toLocaleTimeString()),
      h('td', {class: 'text'}, action), h('td', {class: 'text'}, pattern.trim()), h('td', {class: 'text'}, m.message)));
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
    h('h3', {}, 'Sensors'),
    h('form', {class: 'bar', onsubmit: e => e.preventDefault()},
      h('label', {for: 'sensor-pattern'}, 'Sensor path pattern', sensorPattern),
      button('sensors-suspend', 'Suspend', 'suspend', sensorPattern), button('sensors-resume', 'Resume', 'resume', sensorPattern)),
    outcome,
    h('h3', {}, 'Actions from this page'),
    h('table', {id: 'probes-actions'}, h('thead', {}, h('tr', {}, ['Time', 'Action', 'Pattern', 'Answer'].map(c => h('th', {scope: 'col', class: 'text'}, c)))), history),
    await knownProbes(summary, name => { probePattern.value = name; probePattern.focus(); }));
  return [h('h2', {}, 'Probes'), section];
}

/**
 * The probes the dashboard knows of: the observe protocol has no request that lists an agent's
 * probes, so with a log or archive its operations (one per probed method) are listed to pick from.
 */
async function knownProbes(summary, pick) {
  if (!summary || summary.source === 'live') {
    return h('p', {class: 'note'}, 'The observe protocol has no request that lists an agent\'s probes: give a pattern over the '
      + 'probed methods\' names (the agent\'s include patterns). With a LOGDIR the operations recorded are listed here to pick from.');
  }
  let ops;
  try { ops = await get('/api/operations'); } catch (e) { return errorBox(e.message); }
  if (!ops.length) return empty('No operation recorded yet.');
  return h('div', {}, h('h3', {}, 'Probed methods seen in the log'),
    h('ul', {class: 'probe-list'}, ops.slice(0, 200).map(o => h('li', {}, h('button', {type: 'button', class: 'row-button', onclick: () => pick(o.operation)}, o.operation)))));
}
