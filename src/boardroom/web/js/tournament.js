// A tournament's lobby page (the clock, the field, the payouts, the tables, entering, the host's
// controls) and its results page. The lobby polls the server every POLL_MS with the version it
// has: while nothing changed the server answers only the clocks, which the page counts down.
import { html } from './html.js';
import { useEffect, useRef, useState } from 'preact/hooks';
import { navigate } from './nav.js';
import { getVariants, variantById } from './api.js';
import { loadTournament, saveRoom, saveTournament } from './store.js';
import {
  addBots, answerEntry, blindsText, changeSentence, chips, clockText, control, enter, entryCommand, entryOffers, getLobby, getResults, getWaiting, lobbyUrl,
  ordinal, queuedText, refusedText, resultsCsvUrl, resultsUrl, whereAmI,
} from './tournament-api.js';

const POLL_MS = 2000; // a visible page; a hidden one polls every HIDDEN_POLL_MS
const HIDDEN_POLL_MS = 10000;
const BOT_STYLES = ['tight', 'loose', 'station'];

const go = (url) => (e) => { e.preventDefault(); navigate(url); };

function status(lobby) {
  if (lobby.finished) return 'Finished';
  if (!lobby.started) return lobby.registration_open ? 'Registering' : 'Waiting to start';
  if (lobby.paused) return 'Paused';
  if (lobby.on_break) return 'On a break';
  if (lobby.hand_for_hand) return 'Hand-for-hand';
  return 'Running';
}

// The lobby, kept live: the last full lobby, the clocks of the last answer and when it came.
function useLobby(id) {
  const [state, setState] = useState({ lobby: null, error: null, clock: null, at: 0, said: '' });
  const kick = useRef(() => {});
  useEffect(() => {
    let stopped = false;
    let timer = null;
    let current = null;
    const poll = async () => {
      clearTimeout(timer);
      try {
        const answer = await getLobby(id, current ? current.version : null);
        if (stopped) return;
        const said = changeSentence(current, answer);
        if (!answer.unchanged) current = answer;
        setState((s) => ({ lobby: current, error: null, clock: answer, at: Date.now(), said: said || s.said }));
      } catch (err) {
        if (!stopped) setState((s) => ({ ...s, error: err.message }));
      }
      if (!stopped && !(current && current.finished)) timer = setTimeout(poll, document.hidden ? HIDDEN_POLL_MS : POLL_MS);
    };
    kick.current = poll;
    poll();
    const visible = () => { if (!document.hidden) poll(); };
    document.addEventListener('visibilitychange', visible);
    return () => { stopped = true; clearTimeout(timer); document.removeEventListener('visibilitychange', visible); };
  }, [id]);
  return [state, () => kick.current()];
}

function useSecond() {
  const [, setNow] = useState(0);
  useEffect(() => { const t = setInterval(() => setNow((x) => x + 1), 1000); return () => clearInterval(t); }, []);
}

function left(clock, at, name) {
  const value = clock && clock[name];
  if (value == null) return null;
  return clock.paused ? value : value - (Date.now() - at) / 1000;
}

export function TournamentPage({ tournament, results }) {
  return results ? html`<${ResultsPage} id=${tournament} />` : html`<${LobbyPage} id=${tournament} />`;
}

function LobbyPage({ id }) {
  const [{ lobby, error, clock, at, said }, refresh] = useLobby(id);
  const [variants, setVariants] = useState(null);
  useEffect(() => { getVariants().then(setVariants).catch(() => {}); }, []);
  useSecond();
  useEffect(() => { document.title = lobby ? `${lobby.name}: tournament lobby` : 'Tournament lobby'; }, [lobby && lobby.name]);
  if (!lobby) {
    return html`<div class="tourney"><${Head} />
      <p class="center-note">${error ? html`<span class="error" role="alert">${error}</span>` : 'Loading the tournament…'}</p></div>`;
  }
  const levelLeft = left(clock, at, 'time_left');
  const breakLeft = left(clock, at, 'next_break');
  const saved = loadTournament(id);
  const winners = {};
  for (const p of lobby.players) if (p.place != null && p.prize) (winners[p.place] = winners[p.place] || []).push(p.name);
  return html`<div class="tourney">
    <${Head} />
    <main class="tourney-main">
      <header class="tourney-title">
        <h1>${lobby.name}</h1>
        <p class="muted">${lobby.games.map((g) => (variantById(variants, g) || { name: g }).name).join(', ')}${lobby.games.length > 1 ? (lobby.rotate_every ? ` · the game changes every ${lobby.rotate_every} hands` : ' · the game changes every level') : ''}
          · tables of ${lobby.table_size} · buy-in ${chips(lobby.buy_in)}</p>
        <p><span class="badge" data-testid="tournament-status">${status(lobby)}</span>
          ${lobby.finished ? html` <a href=${resultsUrl(id)} onClick=${go(resultsUrl(id))}>Results</a>` : null}</p>
      </header>
      <div class="sr-only" role="status" aria-live="polite" data-testid="tournament-said">${said}</div>
      ${error ? html`<p class="error" role="alert">${error}</p>` : null}
      <section class="panel tourney-clock" aria-labelledby="t-level">
        <h2 id="t-level">Level ${lobby.level.number}${lobby.on_break ? ' (after the break)' : ''}</h2>
        <p class="tourney-blinds" data-testid="tournament-blinds">Blinds ${blindsText(lobby.level)}</p>
        <dl class="tourney-facts">
          <div><dt>${lobby.on_break ? 'Break ends in' : 'Next level in'}</dt><dd data-testid="tournament-time-left">${
            levelLeft != null ? clockText(levelLeft) : lobby.level.hands ? `after ${lobby.level.hands} hands at a table` : '—'}</dd></div>
          <div><dt>Next level</dt><dd>${lobby.next_level ? blindsText(lobby.next_level) : 'the last level goes on'}</dd></div>
          <div><dt>Next break in</dt><dd>${breakLeft != null ? clockText(breakLeft) : 'no break ahead'}</dd></div>
          <div><dt>Antes from</dt><dd>${lobby.ante_mode === 'big-blind' ? 'the big blind' : 'every player'}</dd></div>
        </dl>
      </section>
      <section class="panel" aria-labelledby="t-field">
        <h2 id="t-field">The field</h2>
        <dl class="tourney-facts">
          <div><dt>Entrants</dt><dd data-testid="tournament-entrants">${lobby.entrants}</dd></div>
          <div><dt>Players left</dt><dd data-testid="tournament-left">${lobby.started ? lobby.left : lobby.entrants}</dd></div>
          <div><dt>Prize pool</dt><dd>${chips(lobby.prize_pool)}</dd></div>
          <div><dt>${lobby.started ? 'Average stack' : 'Starting stack'}</dt><dd>${chips(lobby.started ? lobby.average_stack : lobby.starting_stack)}</dd></div>
          ${lobby.started ? html`<div><dt>Largest stack</dt><dd>${chips(lobby.largest_stack)}</dd></div>` : null}
          <div><dt>Registration</dt><dd>${lobby.registration_open ? 'open' : 'closed'}</dd></div>
        </dl>
      </section>
      <${Entry} id=${id} lobby=${lobby} saved=${saved} refresh=${refresh} />
      ${saved.host_secret ? html`<${HostControls} id=${id} lobby=${lobby} secret=${saved.host_secret} refresh=${refresh} />` : null}
      <section class="panel" aria-labelledby="t-payouts">
        <h2 id="t-payouts">Payouts</h2>
        <div class="scroll" tabindex="0" role="region" aria-label="Payouts table"><table class="tourney-table">
          <thead><tr><th scope="col">Place</th><th scope="col">Prize</th><th scope="col">Won by</th></tr></thead>
          <tbody>${lobby.payouts.map((row) => html`<tr>
            <td>${ordinal(row.place)}</td><td>${chips(row.prize)}</td><td>${(winners[row.place] || []).join(', ')}</td></tr>`)}</tbody>
        </table></div>
      </section>
      <section class="panel" aria-labelledby="t-tables">
        <h2 id="t-tables">Tables</h2>
        ${lobby.tables.length ? html`<ul class="tourney-tables">
          ${lobby.tables.map((t) => html`<li>
            <span>Table ${t.table} · ${t.players} players · hand ${t.hand_no}</span>
            ${t.room ? html`<a class="btn small" href=${`/?room=${encodeURIComponent(t.room)}&watch=1`}
              onClick=${go(`/?room=${encodeURIComponent(t.room)}&watch=1`)} aria-label=${`Watch table ${t.table}`}>Watch</a>` : null}</li>`)}
        </ul>` : html`<p class="muted">${lobby.finished ? 'Every table has closed.' : 'The tables are drawn when the tournament starts.'}</p>`}
      </section>
      <section class="panel" aria-labelledby="t-players">
        <h2 id="t-players">Players (${lobby.players.length})</h2>
        <div class="scroll" tabindex="0" role="region" aria-label="Players table"><table class="tourney-table" data-testid="tournament-players">
          <thead><tr><th scope="col">Player</th><th scope="col">Chips</th><th scope="col">Table</th><th scope="col">Place</th><th scope="col">Prize</th></tr></thead>
          <tbody>${lobby.players.map((p) => html`<tr class=${p.status === 'out' ? 'out' : ''}>
            <th scope="row">${p.name}${p.bot ? html` <span class="muted small">bot</span>` : null}</th>
            <td>${p.status === 'out' ? 'out' : lobby.started ? chips(p.stack) : ''}</td><td>${p.table ?? ''}</td>
            <td>${p.place != null ? ordinal(p.place) : ''}</td><td>${p.prize ? chips(p.prize) : ''}</td></tr>`)}</tbody>
        </table></div>
      </section>
    </main>
  </div>`;
}

function Head() {
  return html`<header class="tourney-head"><a class="brand" href="/" onClick=${go('/')}><span class="logo" aria-hidden="true">♠</span> Boardroom</a></header>`;
}

// Entering (a name while registration is open), and then where this browser's player is.
function Entry({ id, lobby, saved, refresh }) {
  const [name, setName] = useState(localStorage.getItem('boardroom:name') || '');
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const [where, setWhere] = useState(null);
  useEffect(() => {
    if (!saved.token) return;
    whereAmI(id, saved.token).then(setWhere).catch(() => setWhere(null));
  }, [id, saved.token, lobby.version]);
  async function submit(e) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const made = await enter(id, name.trim());
      localStorage.setItem('boardroom:name', made.name);
      saveTournament(id, { token: made.token, player: made.player, name: made.name });
      refresh();
    } catch (err) {
      setError(err.message);
    }
    setBusy(false);
  }
  const own = (kind) => async () => {
    setError(null);
    try { setWhere(await entryCommand(id, saved.token, kind)); refresh(); } catch (err) { setError(err.message); }
  };
  const offers = entryOffers(lobby, where);
  const queued = queuedText(where && where.queued);
  const toTable = (e) => {
    e.preventDefault();
    saveRoom(where.room, { token: where.token, seat: where.seat, name: where.name, tournament: id });
    navigate(`/?room=${encodeURIComponent(where.room)}`);
  };
  if (saved.token) {
    return html`<section class="panel tourney-you" aria-labelledby="t-you">
      <h2 id="t-you">You: ${saved.name}</h2>
      ${!where ? html`<p class="muted">Looking for your seat…</p>`
        : where.status === 'waiting' ? html`<p data-testid="tournament-you">Your entry is waiting for the host's approval.</p>`
        : where.status === 'declined' ? html`<p data-testid="tournament-you">Your entry was not accepted: ${where.reason}.</p>`
        : where.place != null ? html`<p data-testid="tournament-you">You finished ${ordinal(where.place)}${where.prize ? `, winning ${chips(where.prize)}` : ''}.</p>`
          : where.room ? html`<p data-testid="tournament-you">Table ${where.table} · ${chips(where.stack)} chips
              <a class="btn primary small" href=${`/?room=${encodeURIComponent(where.room)}`} onClick=${toTable}>Go to your table</a></p>`
            : html`<p data-testid="tournament-you">You are registered. Your seat is drawn when the tournament starts.</p>`}
      ${queued ? html`<p data-testid="tournament-queued">${queued}</p>` : null}
      ${((where && where.refused) || []).map((r) => html`<p data-testid="tournament-refused">${refusedText(r)}</p>`)}
      ${offers.length ? html`<p class="row">${offers.map(([kind, label]) => html`<button class="btn small" onClick=${own(kind)}>${label}</button>`)}</p>` : null}
      ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    </section>`;
  }
  if (!lobby.registration_open || lobby.finished) return null;
  return html`<form class="panel tourney-enter" onSubmit=${submit} aria-labelledby="t-enter">
    <h2 id="t-enter">Enter this tournament</h2>
    <div class="row">
      <input value=${name} maxlength="24" required onInput=${(e) => setName(e.currentTarget.value)} aria-label="Your name" placeholder="Your name" />
      <button class="btn primary" type="submit" disabled=${busy || !name.trim()}>Enter</button>
    </div>
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
  </form>`;
}

function HostControls({ id, lobby, secret, refresh }) {
  const [error, setError] = useState(null);
  const [minutes, setMinutes] = useState(1);
  const [style, setStyle] = useState('tight');
  const [count, setCount] = useState(1);
  const run = (fn) => async () => {
    setError(null);
    try { await fn(); refresh(); } catch (err) { setError(err.message); }
  };
  const link = location.origin + lobbyUrl(id);
  const timed = lobby.level.minutes != null || lobby.on_break;
  return html`<section class="panel tourney-host" aria-labelledby="t-host">
    <h2 id="t-host">Host</h2>
    <p class="small">Share the lobby link: <input class="link" readonly value=${link} aria-label="Lobby link" onFocus=${(e) => e.currentTarget.select()} /></p>
    <div class="row">
      ${!lobby.started ? html`<button class="btn primary" onClick=${run(() => control(id, secret, 'start'))}>Start</button>` : null}
      ${!lobby.finished ? (lobby.paused
        ? html`<button class="btn" onClick=${run(() => control(id, secret, 'resume'))}>Resume</button>`
        : html`<button class="btn" onClick=${run(() => control(id, secret, 'pause'))}>Pause</button>`) : null}
      ${lobby.registration_open && lobby.started ? html`<button class="btn" onClick=${run(() => control(id, secret, 'close_registration'))}>Close registration</button>` : null}
    </div>
    ${lobby.started && !lobby.finished && timed ? html`<div class="row">
      <label class="field inline"><span class="field-label">Minutes</span>
        <input type="number" min="-60" max="60" value=${minutes} onInput=${(e) => setMinutes(e.currentTarget.value)} aria-label="Minutes to add" /></label>
      <button class="btn" onClick=${run(() => control(id, secret, 'add_time', { seconds: Number(minutes) * 60 }))}>Add time</button>
    </div>` : null}
    ${lobby.registration_open && !lobby.finished ? html`<div class="row">
      <label class="field inline"><span class="field-label">Bots</span>
        <input type="number" min="1" max="200" value=${count} onInput=${(e) => setCount(e.currentTarget.value)} aria-label="How many bots" /></label>
      <select value=${style} onChange=${(e) => setStyle(e.currentTarget.value)} aria-label="Bot style">
        ${BOT_STYLES.map((s) => html`<option value=${s}>${s}</option>`)}
      </select>
      <button class="btn" onClick=${run(() => addBots(id, secret, style, Number(count)))}>Add bots</button>
    </div>` : null}
    ${lobby.entry_approval ? html`<${Waiting} id=${id} lobby=${lobby} secret=${secret} run=${run} />` : null}
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
  </section>`;
}

// The entries waiting for the host's approval, each with Approve and Decline.
function Waiting({ id, lobby, secret, run }) {
  const [waiting, setWaiting] = useState([]);
  useEffect(() => {
    if (!lobby.waiting) { setWaiting([]); return; }
    getWaiting(id, secret).then((body) => setWaiting(body.waiting)).catch(() => {});
  }, [id, secret, lobby.version, lobby.waiting]);
  if (!waiting.length) return html`<p class="muted small">No entry is waiting for your approval.</p>`;
  return html`<div class="tourney-waiting"><h3>Waiting for your approval</h3>
    <ul>${waiting.map((w) => html`<li data-testid="tournament-waiting"><span>${w.name}</span>
      <button class="btn small primary" onClick=${run(() => answerEntry(id, secret, w.player, 'approve'))} aria-label=${`Approve ${w.name}`}>Approve</button>
      <button class="btn small" onClick=${run(() => answerEntry(id, secret, w.player, 'decline'))} aria-label=${`Decline ${w.name}`}>Decline</button></li>`)}
    </ul></div>`;
}

function ResultsPage({ id }) {
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    getResults(id).then((body) => { setData(body); document.title = `${body.name}: results`; }).catch((err) => setError(err.message));
  }, [id]);
  return html`<div class="tourney">
    <${Head} />
    <main class="tourney-main">
      ${error ? html`<p class="error" role="alert">${error}</p>` : null}
      ${data ? html`<section class="panel" aria-labelledby="t-results">
        <h1 id="t-results">Results: ${data.name}</h1>
        <p class="muted">${data.finished ? `Prize pool ${chips(data.prize_pool)}.` : 'The tournament is still running: these are the places so far.'}</p>
        <div class="scroll" tabindex="0" role="region" aria-label="Results table"><table class="tourney-table" data-testid="tournament-results">
          <thead><tr><th scope="col">Place</th><th scope="col">Player</th><th scope="col">Prize</th></tr></thead>
          <tbody>${data.results.map((row) => html`<tr>
            <td>${ordinal(row.place)}${row.tied ? ' (tied)' : ''}</td><th scope="row">${row.name}</th><td>${row.prize ? chips(row.prize) : ''}</td></tr>`)}</tbody>
        </table></div>
        <p class="row"><a class="btn" href=${resultsCsvUrl(id)} download>Download CSV</a>
          <a href=${lobbyUrl(id)} onClick=${go(lobbyUrl(id))}>Back to the lobby</a></p>
      </section>` : error ? null : html`<p class="center-note">Loading the results…</p>`}
    </main>
  </div>`;
}
