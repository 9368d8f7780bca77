// The JSON API: every call either returns the parsed body or throws an Error with the server's message.

export async function get(path, params) {
  const q = params ? new URLSearchParams(Object.entries(params).filter(([, v]) => v !== null && v !== undefined && v !== '')) : null;
  const url = q && [...q].length ? `${path}?${q}` : path;
  let res;
  try {
    res = await fetch(url, {headers: {Accept: 'application/json'}});
  } catch (e) {
    throw new Error(`The dashboard server does not answer (${e.message}). Is "sonde dashboard" still running?`);
  }
  let body = null;
  try { body = await res.json(); } catch (e) { /* not JSON */ }
  if (!res.ok) throw new Error(body && body.error ? body.error : `${url}: HTTP ${res.status}`);
  return body;
}
