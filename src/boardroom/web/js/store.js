// What the browser remembers per room: the seat token, the seat, the name, the host secret.
// Kept in localStorage so a reload or a new tab puts the player back in their seat.

const key = (room) => `boardroom:room:${room}`;
// A tournament's: the entry token, the player id and the host secret.
const tournamentKey = (tournament) => `boardroom:tournament:${tournament}`;

function load(name) {
  try {
    return JSON.parse(localStorage.getItem(name) || '{}') || {};
  } catch {
    return {};
  }
}

function save(name, patch) {
  const next = { ...load(name), ...patch };
  for (const [field, value] of Object.entries(next)) if (value === null) delete next[field];
  localStorage.setItem(name, JSON.stringify(next));
  return next;
}

export const loadRoom = (room) => load(key(room));
export const saveRoom = (room, patch) => save(key(room), patch);
export const loadTournament = (tournament) => load(tournamentKey(tournament));
export const saveTournament = (tournament, patch) => save(tournamentKey(tournament), patch);

export function loadPrefs() {
  try {
    return { fourColour: false, muted: false, ...JSON.parse(localStorage.getItem('boardroom:prefs') || '{}') };
  } catch {
    return { fourColour: false, muted: false };
  }
}

export function savePrefs(prefs) {
  localStorage.setItem('boardroom:prefs', JSON.stringify(prefs));
}
