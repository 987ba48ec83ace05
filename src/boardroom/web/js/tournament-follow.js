// A tournament player's room page follows them (docs/protocol.md, the `tournament` message):
// moved to another table (balancing, or their table broke), the page goes to the new table with
// the new seat token and says why; eliminated, it says their place and prize, and they may stay
// to watch; a rebuy or add-on asked during a hand and refused at its end, it says why. The last
// notice is kept for the next page (sessionStorage) and shown as a banner.
// A tournament table's own controls (TournamentSeatControls) replace the cash game's: a player
// cannot leave, sit out or buy chips there (an away player is blinded off), so the page offers
// the tournament's rebuy or add-on in its period and a way back to the lobby.
import { html } from './html.js';
import { useEffect, useRef, useState } from 'preact/hooks';
import { navigate } from './nav.js';
import { loadTournament, saveRoom } from './store.js';
import {
  changeSentence, chips, entryCommand, entryOffers, getLobby, lobbyUrl, ordinal, queuedText, refusedText, whereAmI,
} from './tournament-api.js';

const KEY = 'boardroom:tournament-notice';

function sentence(notice) {
  if (notice.kind === 'refused') return refusedText(notice);
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

// A tournament table's page reads its lobby at each hand (the level, the rebuy period) and says
// in the table's live region what changed: a new level and its blinds, a break, a pause, the end.
export function useTournamentLobby(conn, tournament) {
  const [lobby, setLobby] = useState(null);
  const seen = useRef(null);
  const handNo = conn && conn.snapshot ? conn.snapshot.table.hand_no : null;
  useEffect(() => {
    if (!tournament || !conn) return undefined;
    let live = true;
    getLobby(tournament).then((next) => {
      if (!live) return;
      const said = changeSentence(seen.current, next);
      seen.current = next;
      if (said && conn.announce) conn.announce(said, 'polite');
      setLobby(next);
    }).catch(() => {});
    return () => { live = false; };
  }, [conn, tournament, handNo]);
  return tournament ? lobby : null;
}

// The link back to a tournament's lobby, from one of its tables.
export function LobbyLink({ tournament }) {
  return html`<a class="btn small" href=${lobbyUrl(tournament)} onClick=${(e) => { e.preventDefault(); navigate(lobbyUrl(tournament)); }}>Back to the lobby</a>`;
}

// A seated tournament player's controls at the table: the tournament's rebuy or add-on while
// it is offered (asked during a hand, it is added when the hand ends), and the lobby. The lobby
// and the player's entry are read again at each hand.
export function TournamentSeatControls({ conn, tournament, lobby }) {
  const token = loadTournament(tournament).token;
  const handNo = conn.snapshot.table.hand_no;
  const [where, setWhere] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    let live = true;
    if (token) whereAmI(tournament, token).then((w) => { if (live) setWhere(w); }).catch(() => {});
    return () => { live = false; };
  }, [tournament, token, handNo]);
  const ask = (kind) => async () => {
    setError(null);
    try { setWhere(await entryCommand(tournament, token, kind)); } catch (err) { setError(err.message); }
  };
  const offers = entryOffers(lobby, where).filter(([kind]) => kind !== 'reenter');
  const queued = queuedText(where && where.queued);
  return html`<div class="seat-controls tourney-seat">
    ${offers.map(([kind, label]) => html`<button class="btn small" type="button" onClick=${ask(kind)}>${label}</button>`)}
    ${queued ? html`<span class="muted" data-testid="tournament-queued">${queued}</span>` : null}
    ${error ? html`<span class="error" role="alert">${error}</span>` : null}
    <${LobbyLink} tournament=${tournament} />
  </div>`;
}
