// A tournament player's room page follows them (docs/protocol.md, the `tournament` message):
// moved to another table (balancing, or their table broke), the page goes to the new table with
// the new seat token and says why; eliminated, it says their place and prize, and they may stay
// to watch. The last notice is kept for the next page (sessionStorage) and shown as a banner.
import { html } from './html.js';
import { useEffect, useState } from 'preact/hooks';
import { navigate } from './nav.js';
import { saveRoom } from './store.js';
import { chips, lobbyUrl, ordinal } from './tournament-api.js';

const KEY = 'boardroom:tournament-notice';

function sentence(notice) {
  if (notice.kind === 'moved') {
    const why = notice.reason === 'table broken'
      ? `Table ${notice.from_table ?? ''} broke`.replace('  ', ' ')
      : `The tables were balanced${notice.from_table != null ? ` (from table ${notice.from_table})` : ''}`;
    return `${why}: you are now at table ${notice.table}.`;
  }
  if (notice.place == null) return notice.kind === 'finished' ? 'The tournament is over.' : 'You are out of the tournament.';
  const prize = notice.prize ? `, winning ${chips(notice.prize)}` : '';
  if (notice.kind === 'finished' && notice.place === 1) return `You won the tournament${prize}!`;
  return `You finished ${ordinal(notice.place)}${prize}. You may stay and watch.`;
}

function keep(notice) {
  const kept = { text: sentence(notice), tournament: notice.tournament, room: notice.room || null, at: Date.now() };
  sessionStorage.setItem(KEY, JSON.stringify(kept));
  return kept;
}

function kept(room) {
  try {
    const notice = JSON.parse(sessionStorage.getItem(KEY) || 'null');
    if (notice && Date.now() - notice.at < 10 * 60 * 1000 && (!notice.room || notice.room === room)) return notice;
  } catch { /* nothing kept */ }
  return null;
}

// The room page's hook: listens on the room connection and returns the notice to show.
export function useTournamentFollow(conn, room) {
  const [notice, setNotice] = useState(() => kept(room));
  useEffect(() => {
    if (!conn) return undefined;
    const on = (payload) => {
      if (typeof window.boardroomWireCheck === 'function') window.boardroomWireCheck('tournament', payload);
      const next = keep(payload);
      setNotice(next);
      if (payload.kind === 'moved' && payload.room && payload.room !== room && payload.token) {
        saveRoom(payload.room, { token: payload.token, seat: payload.seat, name: payload.name, tournament: payload.tournament });
        saveRoom(room, { token: null, seat: null });
        navigate(`/?room=${encodeURIComponent(payload.room)}`);
      }
    };
    conn.socket.on('tournament', on);
    return () => conn.socket.off('tournament', on);
  }, [conn, room]);
  const dismiss = () => { sessionStorage.removeItem(KEY); setNotice(null); };
  return [notice, dismiss];
}

export function TournamentBanner({ notice, dismiss }) {
  if (!notice) return null;
  return html`<div class="tourney-banner" role="status" aria-live="assertive" data-testid="tournament-notice">
    <span>${notice.text}</span>
    <a href=${lobbyUrl(notice.tournament)} onClick=${(e) => { e.preventDefault(); navigate(lobbyUrl(notice.tournament)); }}>Tournament lobby</a>
    <button class="btn small" onClick=${dismiss} aria-label="Dismiss the tournament notice">Dismiss</button>
  </div>`;
}
