// What the browser remembers per room: the seat token, the seat, the name, the host secret.
// Kept in localStorage so a reload or a new tab puts the player back in their seat.

const key = (room) => `boardroom:room:${room}`;

export function loadRoom(room) {
  try {
    return JSON.parse(localStorage.getItem(key(room)) || '{}') || {};
  } catch {
    return {};
  }
}

export function saveRoom(room, patch) {
  const next = { ...loadRoom(room), ...patch };
  for (const [name, value] of Object.entries(next)) if (value === null) delete next[name];
  localStorage.setItem(key(room), JSON.stringify(next));
  return next;
}

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
