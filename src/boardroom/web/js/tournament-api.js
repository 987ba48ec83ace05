// The HTTP side of tournaments (docs/protocol.md, "Tournaments"): create one, its lobby, entries,
// bots, the host's controls, where a player is, the results; and the structures (presets, TOML).
// The host secret and the entry token travel in headers, never in a URL.
import { json } from './api.js';

const base = (id) => `/api/tournaments/${encodeURIComponent(id)}`;
const post = (url, body, headers = {}) => fetch(url, {
  method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body ?? {}),
});
const host = (secret) => (secret ? { 'X-Host-Secret': secret } : {});

export const createTournament = (body) => post('/api/tournaments', body).then(json);
// The lobby; with `since` (the version the page has), an unchanged one answers only its clocks.
export const getLobby = (id, since) => fetch(`${base(id)}${since != null ? `?since=${since}` : ''}`).then(json);
export const enter = (id, name) => post(`${base(id)}/entries`, { name }).then(json);
export const addBots = (id, secret, style, count) => post(`${base(id)}/bots`, { style, count }, host(secret)).then(json);
// The host's list of entries waiting for approval, and their answer to one (`approve`, `decline`).
export const getWaiting = (id, secret) => fetch(`${base(id)}/waiting`, { headers: host(secret) }).then(json);
export const answerEntry = (id, secret, player, answer) => post(`${base(id)}/waiting/${encodeURIComponent(player)}/${answer}`, {}, host(secret)).then(json);
export const control = (id, secret, kind, body) => post(`${base(id)}/${kind}`, body, host(secret)).then(json);
// A player's own rebuy, add-on or re-entry (`kind`), with their entry token.
export const entryCommand = (id, token, kind) => post(`${base(id)}/me/${kind}`, {}, { 'X-Seat-Token': token }).then(json);
export const whereAmI = (id, token) => fetch(`${base(id)}/me`, { headers: { 'X-Seat-Token': token } }).then(json);
export const getResults = (id) => fetch(`${base(id)}/results`).then(json);
export const resultsCsvUrl = (id) => `${base(id)}/results.csv`;
// What a player may ask for now, as the lobby says (the server checks again): a rebuy in the
// rebuy period, the add-on in the level after it, a re-entry while registration is open. Each is
// [kind, label] for `entryCommand`.
export function entryOffers(lobby, where) {
  if (!lobby || !where) return [];
  const playing = where.status === 'playing';
  const queued = where.queued || [];
  const level = lobby.level.number;
  return [
    playing && lobby.rebuy_chips && level <= lobby.rebuy_levels && !queued.includes('rebuy') && where.stack <= lobby.starting_stack
      && !(lobby.max_rebuys && where.rebuys >= lobby.max_rebuys) ? ['rebuy', `Rebuy (${chips(lobby.rebuy_chips)} chips)`] : null,
    playing && lobby.addon_chips && level === lobby.rebuy_levels + 1 && !queued.includes('addon') && !where.addon ? ['addon', `Add-on (${chips(lobby.addon_chips)} chips)`] : null,
    where.status === 'out' && lobby.registration_open && lobby.max_entries > 1 ? ['reenter', 'Re-enter'] : null,
  ].filter(Boolean);
}

const ASKED = { rebuy: 'rebuy', addon: 'add-on' };
// "Your rebuy is added when your hand ends." for what is queued; null when nothing is.
export function queuedText(queued) {
  if (!queued || !queued.length) return null;
  return `Your ${queued.map((q) => ASKED[q] || q).join(' and ')} ${queued.length > 1 ? 'are' : 'is'} added when your hand ends.`;
}
// "Your rebuy was not added: the rebuy period ended with level 1." (a refusal at a hand's end).
export const refusedText = (refused) => `Your ${ASKED[refused.what] || refused.what} was not added: ${refused.reason}.`;

// What a live region says when the lobby changes: a new level, a break, a pause, the end (the
// lobby page's, and a tournament table's).
export function changeSentence(before, after) {
  if (!before || before.unchanged || after.unchanged) return null;
  if (after.finished && !before.finished) {
    const winner = after.players.find((p) => p.place === 1);
    return `The tournament is over${winner ? `: ${winner.name} won ${chips(winner.prize)}` : ''}.`;
  }
  if (after.started && !before.started) return `The tournament has started: level 1, blinds ${blindsText(after.level)}.`;
  if (after.paused !== before.paused) return after.paused ? 'The tournament is paused.' : 'The tournament resumed.';
  if (after.on_break && !before.on_break) return 'A break has started.';
  if (after.level.number !== before.level.number) return `Level ${after.level.number}: blinds ${blindsText(after.level)}.`;
  if (before.registration_open && !after.registration_open && after.started) return 'Registration is closed.';
  if (after.hand_for_hand && !before.hand_for_hand) return 'Hand-for-hand play on the bubble.';
  return null;
}

export const lobbyUrl = (id) => `/?tournament=${encodeURIComponent(id)}`;
export const resultsUrl = (id) => `/?tournament=${encodeURIComponent(id)}&results=1`;

export const getStructures = () => fetch('/api/structures').then(json).then((body) => body.presets);
export const parseStructure = (toml) => post('/api/structures/parse', { toml }).then(json);
export async function structureToml(settings) {
  const response = await post('/api/structures/toml', settings);
  if (!response.ok) await json(response); // throws the server's words
  return response.text();
}

// 1st, 2nd, 3rd, 4th ... 11th, 12th, 13th, 21st.
export function ordinal(n) {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const end = teen ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' })[n % 10] || 'th';
  return `${n}${end}`;
}

export const chips = (n) => (n == null ? '' : Number(n).toLocaleString('en-US'));

// 75 -> "1:15"; 3725 -> "1:02:05".
export function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const two = (x) => String(x).padStart(2, '0');
  return h ? `${h}:${two(m)}:${two(r)}` : `${m}:${two(r)}`;
}

export function blindsText(level) {
  if (!level) return '';
  return `${chips(level.small_blind)}/${chips(level.big_blind)}${level.ante ? `, ante ${chips(level.ante)}` : ''}`;
}
