// The HTTP side of the server: variants, rooms, finished hands and the ledger.

// A response's JSON, or an Error carrying the server's own words (its `detail`).
export async function json(response) {
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    const detail = body.detail;
    const text = typeof detail === 'string' ? detail
      : Array.isArray(detail) ? detail.map((d) => `${(d.loc || []).slice(1).join('.')}: ${d.msg}`).join('; ')
      : `HTTP ${response.status}`;
    throw new Error(text);
  }
  return body;
}

let variantsCache = null;

export function getVariants() {
  if (!variantsCache) {
    variantsCache = fetch('/api/games').then(json).then((body) => body.games);
    variantsCache.catch(() => { variantsCache = null; });
  }
  return variantsCache;
}

// A game's worked example hand for the rules page (engine-played, every hand shown).
export function getVariantExample(id) {
  return fetch(`/api/games/${encodeURIComponent(id)}/example`).then(json);
}

export function variantById(variants, id) {
  return (variants || []).find((v) => v.id === id) || null;
}

export function createRoom(options) {
  return fetch('/api/rooms', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(options),
  }).then(json);
}

const auth = (token) => (token ? { headers: { 'X-Seat-Token': token } } : {});

export function getHands(room, token) {
  return fetch(`/api/rooms/${encodeURIComponent(room)}/hands`, auth(token)).then(json);
}

export function getHand(room, handNo, token) {
  return fetch(`/api/rooms/${encodeURIComponent(room)}/hands/${handNo}`, auth(token)).then(json);
}

// The seat token travels in a header, never in a URL (URLs end up in access logs), so the
// history file is fetched here and handed to the browser as a download.
export async function downloadHistory(room, handNo, token) {
  const response = await fetch(`/api/rooms/${encodeURIComponent(room)}/hands/${handNo}/history.toml`, auth(token));
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    throw new Error(body.detail || `the history file could not be fetched (${response.status})`);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `boardroom-${room}-hand-${handNo}.toml`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

export function ledgerUrl(room) {
  return `/api/rooms/${encodeURIComponent(room)}/ledger.csv`;
}
