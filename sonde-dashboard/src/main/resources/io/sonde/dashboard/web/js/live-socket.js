// The live pages' connection: /api/live says where the dashboard's WebSocket listens; the server
// observes the agent for the page (periodic delivery) and forwards JSON messages.
import {get} from './api.js';

/** What /api/live says: {available, websocketPort, path, agents, who} or {available: false, reason}. */
export function liveInfo() {
  return get('/api/live');
}

/**
 * Opens the WebSocket; `onMessage(message)` gets every parsed message, `onClose(text)` once when it
 * ends. The socket closes itself when `alive()` turns false (the page was left).
 */
export function openSocket(info, {onOpen, onMessage, onClose, alive}) {
  const host = location.hostname.includes(':') ? `[${location.hostname}]` : location.hostname;
  const ws = new WebSocket(`ws://${host}:${info.websocketPort}${info.path}`);
  let closed = false;
  const end = text => { if (!closed) { closed = true; onClose(text); } };
  ws.addEventListener('open', () => onOpen(ws));
  ws.addEventListener('message', ev => {
    if (!alive()) { ws.close(1000, 'page left'); return; }
    let m;
    try { m = JSON.parse(ev.data); } catch (e) { return; }
    onMessage(m);
  });
  ws.addEventListener('close', ev => end(ev.code === 1000 || ev.code === 1001 ? 'The live connection was closed.'
    : `The live connection to the dashboard ended (code ${ev.code}${ev.reason ? ': ' + ev.reason : ''}). Is "sonde dashboard" still running? Reload to reconnect.`));
  // a page left while nothing arrives still lets go of its observer connection
  const timer = setInterval(() => { if (!alive()) { clearInterval(timer); ws.close(1000, 'page left'); } }, 1000);
  return ws;
}

/** The agent chosen in the address, else the first one. */
export function chosenAgent(info, params) {
  const a = params.get('agent');
  return a && info.agents.includes(a) ? a : info.agents[0];
}
