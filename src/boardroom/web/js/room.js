// A room: the table for players, spectators and the host.
import { html } from './html.js';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { getVariants, variantById } from './api.js';
import { RoomConnection } from './conn.js';
import { seatInHand } from './seats.js';
import { loadPrefs, loadRoom, savePrefs } from './store.js';
import { navigate } from './nav.js';
import { Card, cardName } from './cards.js';
import { ActionBar, DrawBar, PreActions } from './actions.js';
import { Allocation, isAllocating } from './allocation.js';
import { HostPanel } from './host.js';
import { Boards } from './boards.js';
import { Clock } from './clock.js';
import { beep } from './sound.js';
import { ChatPanel, ChatToggle, useChatUnread } from './chat.js';
import { LiveRegions, attachAnnouncer, pillItems, tableSummary } from './announce.js';
import { KeyHelp, useRoomKeys } from './keys.js';
import { rulesUrl } from './rules.js';
import { postsText } from './words.js';
import { LogPanel, LogToggle } from './log.js';
import { LobbyLink, TournamentBanner, TournamentSeatControls, useTournamentFollow, useTournamentLobby } from './tournament-follow.js';

const GAME_NAME = (variants, id) => (variantById(variants, id) || { name: id || '' }).name;
// The game dealt now (or next): the hand's, the table's last, a rotation's current one, or the room's.
const tableGame = (table) => table.game || (table.rotation && table.rotation.game.game) || table.settings.game;
const gameOf = (snap) => (snap ? (snap.hand && snap.hand.game) || tableGame(snap.table) : null);

export function RoomPage({ room, watch }) {
  const [, setTick] = useState(0);
  const [conn, setConn] = useState(null);
  const [variants, setVariants] = useState(null);
  const [prefs, setPrefs] = useState(loadPrefs());
  const [hostOpen, setHostOpen] = useState(false);
  const [chatOpen, setChatOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const variantsRef = useRef(null);
  variantsRef.current = variants;
  const [logOpen, setLogOpen] = useState(false);
  const openChat = (open) => { setChatOpen(open); if (open) setLogOpen(false); };
  const openLog = (open) => { setLogOpen(open); if (open) setChatOpen(false); };
  useEffect(() => {
    const c = new RoomConnection(room, { role: watch ? 'spectator' : 'player', onChange: () => setTick((t) => t + 1) });
    attachAnnouncer(c, (snap) => variantById(variantsRef.current, gameOf(snap)));
    setConn(c);
    window.boardroom = c; // for the console and the browser tests
    getVariants().then(setVariants).catch(() => {});
    return () => c.close();
  }, [room, watch]);
  const togglePref = (name) => {
    const next = { ...prefs, [name]: !prefs[name] };
    setPrefs(next);
    savePrefs(next);
  };
  const snap = conn && conn.snapshot;
  const you = (conn && conn.you) || {};
  const display = conn ? conn.displayHand() : null;
  const myTurn = !!(snap && snap.hand && snap.hand.legal);
  useTurnSignals(myTurn, prefs.muted);
  const unread = useChatUnread(conn && conn.snapshot ? conn : null, room, chatOpen);
  useRoomKeys({
    onHelp: () => setHelpOpen((open) => !open),
    onSummary: () => {
      if (!conn) return;
      conn.announce(tableSummary(conn, variantById(variants, gameOf(conn.snapshot))), 'assertive');
      setTick((t) => t + 1);
    },
  });
  const [tournamentNotice, dismissTournamentNotice] = useTournamentFollow(conn, room);
  const tournamentLobby = useTournamentLobby(conn, snap && snap.tournament);
  if (!conn || !snap) {
    return html`<div class="room loading-room">
      <${TopBar} room=${room} prefs=${prefs} togglePref=${togglePref} />
      <p class="center-note">${conn && conn.error ? html`<span class="error" role="alert">${conn.error}</span>` : 'Connecting…'}</p>
      ${conn && conn.error ? html`<p class="center-note"><a href="/">Back to the home page</a></p>` : null}
    </div>`;
  }
  const table = snap.table;
  const gameId = (display && display.hand.game) || tableGame(table);
  const variant = variantById(variants, gameId);
  return html`<div class=${`room ${prefs.fourColour ? 'four-colour' : ''} ${myTurn ? 'my-turn' : ''} ${chatOpen || logOpen ? 'chat-open' : ''}`}>
    <${TopBar} room=${room} prefs=${prefs} togglePref=${togglePref} conn=${conn} variants=${variants}
      hostOpen=${hostOpen} setHostOpen=${setHostOpen} chat=${html`<${ChatToggle} open=${chatOpen} setOpen=${openChat} unread=${unread} /><${LogToggle} open=${logOpen} setOpen=${openLog} />`}
      game=${gameId} helpOpen=${helpOpen} setHelpOpen=${setHelpOpen} />
    <${TournamentBanner} notice=${tournamentNotice} dismiss=${dismissTournamentNotice} />
    ${you.host && hostOpen ? html`<${HostPanel} conn=${conn} close=${() => setHostOpen(false)} link=${loadRoom(room).join_link || `${location.origin}/?room=${room}`} />` : null}
    <div class="room-body">
      <main class="room-main">
        <h1 class="sr-only">${GAME_NAME(variants, gameId)} table${table.hand_no ? `, hand ${table.hand_no}` : ''}</h1>
        <${Table} conn=${conn} display=${display} variant=${variant} variants=${variants} />
        <${Dock} conn=${conn} display=${display} variant=${variant} variants=${variants} tournamentLobby=${tournamentLobby} />
      </main>
      ${chatOpen ? html`<${ChatPanel} conn=${conn} close=${() => setChatOpen(false)} />` : null}
      ${logOpen ? html`<${LogPanel} conn=${conn} close=${() => setLogOpen(false)} />` : null}
    </div>
    <${Notices} conn=${conn} />
    <${LiveRegions} conn=${conn} />
    ${helpOpen ? html`<${KeyHelp} close=${() => setHelpOpen(false)} />` : null}
  </div>`;
}

function TopBar({ room, prefs, togglePref, conn, variants, hostOpen, setHostOpen, chat, game, helpOpen, setHelpOpen }) {
  const snap = conn && conn.snapshot;
  const table = snap && snap.table;
  const you = (conn && conn.you) || {};
  const saved = loadRoom(room);
  const link = saved.join_link || `${location.origin}/?room=${room}`;
  const [copied, setCopied] = useState(false);
  const copy = () => {
    navigator.clipboard && navigator.clipboard.writeText(link).catch(() => {});
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return html`<header class="topbar">
    <a class="brand" href="/" aria-label="Boardroom home" onClick=${(e) => { e.preventDefault(); navigate('/'); }}><span class="logo" aria-hidden="true">♠</span><span class="brand-name">Boardroom</span></a>
    ${table ? html`<div class="game-title">
      <strong>${table.rotation ? `${table.rotation.name}: ` : ''}${GAME_NAME(variants, tableGame(table))}</strong>
      ${table.rotation ? html`<span class="rotation-next">${rotationNext(table.rotation, table.phase)}</span>` : null}
      ${table.posts ? html`<span class="stakes">${postsText(table.posts, table.phase === 'playing' && Object.values(snap.blinds || {}).includes('straddle'))}</span>` : null}
      ${table.hand_no ? html`<span class="hand-no">Hand #${table.hand_no}</span>` : null}
      ${table.paused ? html`<span class="badge warn">Paused</span>` : null}
      ${!conn.connected ? html`<span class="badge warn">Reconnecting…</span>` : null}
    </div>` : null}
    <div class="top-actions">
      ${you.host ? html`<div class="share">
        <input class="share-link" readonly value=${link} aria-label="Share link" onFocus=${(e) => e.currentTarget.select()} />
        <button class="btn small" onClick=${copy}>${copied ? 'Copied' : html`Copy <span class="sr-only">share </span>link`}</button>
      </div>` : null}
      ${you.host ? html`<button class="btn small host-btn" aria-pressed=${hostOpen ? 'true' : 'false'} onClick=${() => setHostOpen(!hostOpen)}>Host</button>` : null}
      ${chat || null}
      <button class="btn small" onClick=${() => navigate(`/?room=${encodeURIComponent(room)}&history=1`)}>History</button>
      ${game ? html`<button class="btn small rules-btn" title=${`The rules of ${GAME_NAME(variants, game)}`}
        onClick=${() => navigate(`${rulesUrl(game)}&back=${encodeURIComponent(`/?room=${room}`)}`)}>Rules</button>` : null}
      ${setHelpOpen ? html`<button class="btn small icon keys-btn" aria-label="Keyboard help" aria-keyshortcuts="?" title="Keyboard (?)"
        aria-expanded=${helpOpen ? 'true' : 'false'} onClick=${() => setHelpOpen(!helpOpen)}>?</button>` : null}
      <button class="btn small icon" aria-pressed=${prefs.fourColour ? 'true' : 'false'} title="Four-colour deck" onClick=${() => togglePref('fourColour')}><span aria-hidden="true">4♣</span><span class="sr-only">Four-colour deck</span></button>
      <button class="btn small icon" aria-pressed=${prefs.muted ? 'true' : 'false'} aria-label=${prefs.muted ? 'Unmute' : 'Mute'} title="Turn sound" onClick=${() => togglePref('muted')}><${Speaker} muted=${prefs.muted} /></button>
    </div>
  </header>`;
}

// When a rotation's game changes, in words: "next: Razz, after this hand" (or "from the next
// hand" between hands, "after 3 more hands", "after this orbit").
export function rotationNext(rotation, phase) {
  const left = rotation.hands_left;
  const when = rotation.last ? (phase === 'playing' ? 'after this hand' : 'from the next hand')
    : left != null ? `after ${left} more hand${left === 1 ? '' : 's'}`
      : 'after this orbit';
  return `next: ${rotation.next.name}, ${when}`;
}

function Speaker({ muted }) {
  return html`<svg class="speaker" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
    <path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor" />
    ${muted ? html`<path d="M16 9l5 6M21 9l-5 6" stroke="currentColor" stroke-width="2" fill="none" />`
      : html`<path d="M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12" stroke="currentColor" stroke-width="2" fill="none" />`}
  </svg>`;
}

function useTurnSignals(myTurn, muted) {
  const was = useRef(false);
  useEffect(() => {
    if (myTurn && !was.current && !muted) beep();
    was.current = myTurn;
    if (!myTurn) { document.title = 'Boardroom'; return undefined; }
    let flip = false;
    document.title = '● Your turn · Boardroom';
    const timer = setInterval(() => {
      flip = !flip;
      document.title = flip ? 'Your turn! · Boardroom' : '● Your turn · Boardroom';
    }, 1200);
    return () => clearInterval(timer);
  }, [myTurn, muted]);
}

// -- the table ---------------------------------------------------------------------------

function Table({ conn, display, variant, variants }) {
  const snap = conn.snapshot;
  const table = snap.table;
  const you = conn.you || {};
  const seats = table.seats;
  const n = seats.length;
  const base = you.seat != null ? you.seat : 0;
  const hand = display ? display.hand : null;
  const blinds = display && display.live ? snap.blinds || {} : {};
  return html`<section class=${`table-wrap seats-${n}`} aria-label="Table">
    <div class="felt">
      <div class="felt-inner">
        <${Centre} conn=${conn} hand=${hand} display=${display} variant=${variant} variants=${variants} />
      </div>
      ${seats.map((s) => {
        const rel = (s.seat - base + n) % n;
        const angle = (90 + (rel * 360) / n) * (Math.PI / 180);
        const x = 50 + 50 * Math.cos(angle);
        const y = 50 + 50 * Math.sin(angle);
        // On a phone's tall felt the seats sit out on the rim (a squarer curve), clear of the
        // boards in the middle; the stylesheet picks --px/--py under 600px.
        const rim = (v) => Math.sign(v) * Math.abs(v) ** 0.6;
        const px = 50 + 50 * rim(Math.cos(angle));
        const py = 50 + 50 * rim(Math.sin(angle));
        const hv = seatInHand(hand, s.seat);
        const posClass = y > 70 ? 'bottom' : y < 30 ? 'top' : x < 50 ? 'left' : 'right';
        return html`<${Seat} key=${s.seat} conn=${conn} seat=${s} hv=${hv} hand=${hand}
          style=${`--x:${x}%;--y:${y}%;--px:${px}%;--py:${py}%`} posClass=${posClass} blind=${blinds[String(s.seat)]}
          isButton=${hand ? hand.button === s.seat : table.button === s.seat}
          display=${display} dx=${Math.cos(angle)} dy=${Math.sin(angle)} />`;
      })}
    </div>
    <${Watchers} watchers=${snap.watchers} />
  </section>`;
}

// A spectator may give a name, which the table's watcher list shows (and chat lines carry).
function WatcherName({ conn }) {
  const [name, setName] = useState(localStorage.getItem('boardroom:name') || '');
  const [said, setSaid] = useState(null);
  const save = (e) => {
    e.preventDefault();
    const clean = name.trim();
    if (!clean || clean.length > 24) { setSaid('A name is 1 to 24 characters'); return; }
    localStorage.setItem('boardroom:name', clean);
    conn.join().then(() => setSaid(`Watching as ${clean}`));
  };
  return html`<form class="row watcher-name" onSubmit=${save}>
    <input value=${name} maxlength="24" placeholder="Your name (optional)" aria-label="Your name as a watcher"
      onInput=${(e) => setName(e.currentTarget.value)} />
    <button class="btn small" type="submit">Show my name</button>
    ${said ? html`<span class="muted small" role="status">${said}</span>` : null}
  </form>`;
}

// How many are watching without a seat, and the names of those who gave one.
function Watchers({ watchers }) {
  if (!watchers || !watchers.count) return null;
  const { count, names } = watchers;
  const others = count - names.length;
  const who = names.length ? `: ${names.join(', ')}${others > 0 ? ` and ${others} more` : ''}` : '';
  return html`<p class="watchers" data-count=${count}>${count} watching${who}</p>`;
}

const BLIND_NAMES = { small: ['Small blind', 'SB'], big: ['Big blind', 'BB'], straddle: ['Straddle', 'STR'] };

function Seat({ conn, seat, hv, hand, style, posClass, blind, isButton, display, dx, dy }) {
  const snap = conn.snapshot;
  const you = conn.you || {};
  const [sitting, setSitting] = useState(false);
  const mine = you.seat === seat.seat;
  const bot = (snap.bots || {})[String(seat.seat)];
  if (seat.empty) {
    const canSit = you.seat == null && you.role !== 'spectator' && !snap.tournament; // (the director seats)
    return html`<div class=${`seat empty ${posClass}`} style=${style} data-seat=${seat.seat}>
      ${canSit && !sitting ? html`<button class="btn sit" onClick=${() => setSitting(true)}>Sit <span class="sr-only">in seat </span><span class="seat-no">${seat.seat + 1}</span></button>` : null}
      ${canSit && sitting ? html`<${SitForm} conn=${conn} seat=${seat.seat} cancel=${() => setSitting(false)} />` : null}
      ${!canSit ? html`<span class="empty-label">Seat ${seat.seat + 1}</span>` : null}
    </div>`;
  }
  const turn = snap.table.turn;
  const acting = !!(display && display.live && turn && turn.seat === seat.seat);
  // Backs first, then the cards face up (stud's up cards, in the order dealt) so none hides one.
  const cards = !hv ? [] : hv.shown ? hv.cards : [...hv.cards.filter((c) => !c), ...hv.cards.filter(Boolean)];
  const won = display && !display.live && hv ? (hand.winnings || {})[String(seat.seat)] : null;
  const status = seat.status === 'pending' ? 'Waiting for approval' : seat.status === 'out' ? 'Sitting out'
    : seat.leaving ? 'Leaving' : hv && hv.folded ? 'Folded' : hv && hv.all_in ? 'All-in' : '';
  const stack = hv ? hv.stack : seat.stack;
  const betX = 50 - dx * 85;
  const betY = 50 - dy * 85;
  return html`<div class=${`seat ${posClass} ${mine ? 'mine' : ''} ${acting ? 'acting' : ''} ${hv && hv.folded ? 'folded' : ''} ${seat.status !== 'playing' ? 'out' : ''} ${won ? 'winner' : ''}`}
      style=${style} data-seat=${seat.seat} aria-label=${`Seat ${seat.seat + 1}: ${seat.name}`} role="group">
    ${cards.length && !mine ? html`<div class=${`seat-cards n${Math.min(cards.length, 9)} ${hv.shown ? 'shown' : ''} ${!hv.shown && cards.some(Boolean) ? 'ups' : ''}`}>
      ${cards.map((c, i) => html`<${Card} key=${i} card=${c} small=${true} />`)}
    </div>` : null}
    <div class="plate">
      <div class="name">${seat.name}${mine ? html` <span class="you">(you)</span>` : null}${bot ? html` <span class="bot-tag" title=${`${bot} bot`} aria-label=${`${bot} bot`}>BOT</span>` : null}</div>
      <div class="stack" aria-label=${`stack ${stack}`}>${stack}</div>
      ${status ? html`<div class="status">${status}</div>` : null}
      ${acting ? html`<${Clock} conn=${conn} turn=${turn} seat=${seat} />` : null}
    </div>
    ${isButton ? html`<span class="dealer" title="Dealer button" aria-label="Dealer button">D</span>` : null}
    ${blind ? html`<span class=${`blind ${blind}`} aria-label=${BLIND_NAMES[blind][0]}>${BLIND_NAMES[blind][1]}</span>` : null}
    ${hv && hv.bet ? html`<div class="bet" style=${`left:${betX}%;top:${betY}%`} aria-label=${`bet ${hv.bet}`}><span class="chip" aria-hidden="true"></span>${hv.bet}</div>` : null}
    ${won ? html`<div class="won" aria-label=${`won ${won}`}>+${won}</div>` : null}
    <${SeatEquity} display=${display} seat=${seat.seat} />
  </div>`;
}

// The seat's chance at the all-in (the run-out's first spot, main pot): its share of the pot in
// the points and hi-lo games, its chance of winning it elsewhere. The centre lists every street.
function SeatEquity({ display, seat }) {
  const equity = display && !display.live ? display.equity : null;
  if (!equity || !equity.streets.length) return null;
  const mine = equity.streets[0].pots[0].seats.find((s) => s.seat === seat);
  if (!mine) return null;
  const figure = equity.shares ? `share ${mine.share_pct}%` : `${mine.win_pct}%`;
  return html`<div class="seat-equity" title=${`All-in equity on the ${equity.streets[0].street}`}>${figure}</div>`;
}

function EquityTable({ equity }) {
  return html`<div class="equity-table" role="group" aria-label="All-in equity">
    ${equity.streets.map((street) => html`<div class="equity-street" data-street=${street.street}>
      <b>${street.street}</b> <span class="equity-how">${street.exact ? 'exact' : `±${street.margin}%`}</span>
      ${street.pots.map((pot) => html`<span class="equity-pot" data-pot=${pot.index}>
        ${street.pots.length > 1 ? html`<i>${pot.index ? `Side ${pot.index}` : 'Main'}</i>` : null}
        ${pot.seats.map((s) => html`<span class="equity-seat" data-seat=${s.seat}>${s.name} ${s.win_pct}%${equity.shares ? html` <small>share ${s.share_pct}%</small>` : null}</span>`)}
      </span>`)}
    </div>`)}
  </div>`;
}

function SitForm({ conn, seat, cancel }) {
  const [name, setName] = useState(loadRoom(conn.room).name || localStorage.getItem('boardroom:name') || '');
  const [busy, setBusy] = useState(false);
  const submit = async (e) => {
    e.preventDefault();
    if (!name.trim()) return;
    setBusy(true);
    localStorage.setItem('boardroom:name', name.trim());
    const answer = await conn.sit(seat, name.trim());
    setBusy(false);
    if (answer.ok) cancel();
  };
  return html`<form class="sit-form" onSubmit=${submit}>
    <input autoFocus maxLength="24" placeholder="Your name" value=${name} aria-label="Your name"
      onInput=${(e) => setName(e.currentTarget.value)} />
    <div class="row"><button class="btn primary small" type="submit" disabled=${busy}>Take seat</button>
    <button class="btn small" type="button" onClick=${cancel}>Cancel</button></div>
  </form>`;
}

function Centre({ conn, hand, display, variant, variants }) {
  const table = conn.snapshot.table;
  const pots = hand && hand.pots ? hand.pots : [];
  const total = pots.reduce((sum, p) => sum + p.amount, 0);
  const pool = hand ? hand.pool_size : null;
  let note = null;
  if (!hand) {
    if (table.phase === 'waiting') note = 'Waiting for players';
    else if (table.phase === 'between') note = html`Next hand <${Countdown} conn=${conn} deadline=${table.deadline} />`;
    else if (table.phase === 'picking') {
      const picker = table.seats[table.picker];
      note = `${picker && picker.name ? picker.name : 'The button'} is picking the game`;
    } else if (table.phase === 'closed') note = 'This room is closed';
  }
  const runs = hand && hand.runs && hand.runs.length;
  return html`<div class=${`centre ${runs ? 'with-runs' : ''}`}>
    ${hand && !(hand.runs && hand.runs.length) ? html`<${Boards} hand=${hand} variant=${variant} rabbit=${display.rabbit} />` : null}
    ${hand && hand.runs && hand.runs.length ? html`<div class="runs">${[{ run: 1, boards: hand.boards }, ...hand.runs].map((run) => html`<div class="run" data-run=${run.run} role="group" aria-label=${`Run ${run.run}`}>
      <p class="run-name">Run ${run.run}</p><${Boards} hand=${{ boards: run.boards }} variant=${variant} small=${true} /></div>`)}</div>` : null}
    ${hand && hand.runs_most > 0 && display.live ? html`<p class="phase-note runs-note" role="status">Everyone is all-in · run it up to ${TIMES[hand.runs_most]}? Waiting for ${hand.runs_pending.map((s) => seatName(conn, s)).join(', ')}</p>` : null}
    ${display && display.rabbit ? html`<p class="rabbit-note">Rabbit hunt: the dimmed cards were not dealt</p>` : null}
    <div class="pot-line">
      ${pots.length ? html`<span class="pot" aria-label=${`pot ${total}`}>Pot <strong>${total}</strong></span>` : null}
      ${pots.length > 1 && hand.seats.some((s) => s.all_in) ? html`<span class="side-pots">${pots.map((p, i) => html`<span class="pot-part">${i ? `Side ${i}` : 'Main'} ${p.amount}</span>`)}</span>` : null}
      ${pool != null ? html`<span class="pool" aria-label=${`pool ${pool}`}>Pool <strong>${pool}</strong></span>` : null}
      ${hand && hand.street && display.live ? html`<span class="street">${hand.street}</span>` : null}
    </div>
    ${note ? html`<div class="phase-note">${note}</div>` : null}
    ${display && !display.live ? html`<${Showdown} conn=${conn} display=${display} variants=${variants} />` : null}
    ${display && !display.live && display.equity ? html`<${EquityTable} equity=${display.equity} />` : null}
  </div>`;
}

const TIMES = { 1: 'once', 2: 'twice', 3: 'three times' };

// Everyone left is all-in before the last card: run the rest once, twice or three times (the
// `runs` command). The fewest anyone chose is dealt; no answer in time is once.
function RunsChoice({ conn, most }) {
  const [error, setError] = useState(null);
  const [sent, setSent] = useState(null);
  const send = async (runs) => {
    const answer = await conn.send('runs', { runs });
    if (answer && answer.ok === false) setError(answer.error); else { setError(null); setSent(runs); }
  };
  const choices = [1, 2, 3].filter((n) => n <= most);
  return html`<div class="runs-choice panel" role="group" aria-label="Run it more than once">
    <span class="runs-label">Everyone is all-in. Run it</span>
    ${choices.map((n) => html`<button class=${`btn small ${n === 2 ? 'primary' : ''}`} type="button" disabled=${sent != null}
      data-runs=${n} onClick=${() => send(n)}>${n === 1 ? 'Once' : n === 2 ? 'Twice' : 'Three times'}</button>`)}
    <span class="runs-clock"><${Countdown} conn=${conn} deadline=${conn.runsDeadline} /></span>
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
  </div>`;
}

function Countdown({ conn, deadline }) {
  const [, setNow] = useState(0);
  useEffect(() => { const t = setInterval(() => setNow((x) => x + 1), 250); return () => clearInterval(t); }, []);
  if (deadline == null) return null;
  return html`<span>in ${Math.max(0, Math.ceil(deadline - conn.serverNow()))}s</span>`;
}

function seatName(conn, number) {
  const seat = conn.snapshot.table.seats[number];
  return seat && seat.name ? seat.name : `Seat ${number + 1}`;
}

function Showdown({ conn, display }) {
  const { hand, awards = [] } = display;
  const name = (seat) => seatName(conn, seat);
  const results = hand.results || [];
  const shown = hand.showdown || [];
  if (!results.length && !awards.length) return null;
  return html`<div class="showdown" role="status" aria-label="Hand result">
    ${results.map((r) => html`<div class="result" data-pot=${r.index} data-run=${r.run}>
      <div class="award"><span class="pot-name">${hand.run_count > 1 ? `Run ${r.run} · ` : ''}${r.index ? `Side pot ${r.index}` : 'Pot'} ${r.amount}</span>
        ${r.shares.map(([seat, chips]) => html` <strong class="winner-name">${name(seat)}</strong> wins <span class="chips">${chips}</span>`)}</div>
      ${r.categories.length > 1 || r.points.length ? html`<div class="categories">
        ${r.categories.map(([cat, winners]) => html`<span class="cat" data-category=${cat}><b>${cat}</b> ${winners.length ? winners.map(name).join(' & ') : 'void'}</span>`)}
        ${r.points.length ? html`<span class="points">Points: ${r.points.map(([seat, pts]) => `${name(seat)} ${pts}`).join(' · ')}</span>` : null}
      </div>` : null}
    </div>`)}
    ${!results.length ? awards.map((a) => html`<div class="award">
      <span class="pot-name">${a.index ? `Side pot ${a.index}` : 'Pot'} ${a.amount}</span>
      ${a.shares.map(([seat, chips]) => html` <strong class="winner-name">${name(seat)}</strong> wins ${chips}`)}
    </div>`) : null}
    ${shown.length ? html`<div class="shown-hands">${shown.map((sh) => html`<div class="shown" data-seat=${sh.seat}>
      <b>${name(sh.seat)}</b> ${sh.categories.map(([cat, desc]) => html`<span class="cat-desc"><i>${cat}</i> ${desc}</span>`)}
      ${sh.allocation && sh.allocation.length ? html`<span class="alloc-shown">${sh.allocation.map(([slot, cards]) => html`<span class="cat-desc"><i>${slot}</i> ${cards.join(' ')}</span>`)}</span>` : null}
    </div>`)}</div>` : null}
  </div>`;
}

// -- the dock under the table: your cards, pills and controls ---------------------------

function Dock({ conn, display, variant, variants, tournamentLobby }) {
  const snap = conn.snapshot;
  const you = conn.you || {};
  const table = snap.table;
  const hand = display ? display.hand : null;
  const mine = you.seat != null ? seatInHand(hand, you.seat) : null;
  const seat = you.seat != null ? table.seats[you.seat] : null;
  const legal = display && display.live && hand ? hand.legal : null;
  const allocating = display && display.live && mine && isAllocating(hand, variant);
  const runsOffered = display && display.live && hand && mine && (hand.runs_pending || []).includes(you.seat);
  return html`<section class="dock" aria-label="Your controls">
    ${mine && mine.cards.length ? html`<${MyCards} cards=${mine.cards} up=${mine.up || []} folded=${mine.folded} key=${table.hand_no} />` : null}
    ${hand && hand.pills ? html`<${Pills} pills=${hand.pills} />` : null}
    ${allocating ? html`<${Allocation} conn=${conn} hand=${hand} mine=${mine} variant=${variant} key=${table.hand_no} />` : null}
    ${runsOffered ? html`<${RunsChoice} conn=${conn} most=${hand.runs_most} key=${table.hand_no} />` : null}
    ${display && !display.live && display.canHunt && you.seat != null ? html`<button class="btn small rabbit-btn" type="button" onClick=${() => conn.send('rabbit')}>Rabbit hunt</button>` : null}
    ${display && !display.live && display.canShow && mine ? html`<${ShowAfter} conn=${conn} cards=${mine.cards.filter(Boolean)} shown=${display.shownAfter || []} key=${display.handNo} />` : null}
    ${legal && legal.draw != null && mine ? html`<${DrawBar} conn=${conn} legal=${legal} cards=${mine.cards.filter(Boolean)} />` : null}
    ${legal && legal.draw == null ? html`<${ActionBar} conn=${conn} legal=${legal} sizes=${snap.sizes} hand=${hand} />` : null}
    ${!legal && mine && display.live && !mine.folded && !mine.all_in && !allocating && !runsOffered
      ? html`<${PreActions} conn=${conn} hand=${hand} mine=${mine} />` : null}
    ${table.phase === 'picking' && table.picker === you.seat && you.seat != null
      ? html`<${Picker} conn=${conn} variants=${variants} choices=${table.choices || []} deadline=${table.deadline} /> ` : null}
    ${seat && !seat.empty ? (snap.tournament ? html`<${TournamentSeatControls} conn=${conn} tournament=${snap.tournament} lobby=${tournamentLobby} />`
    : html`<${SeatControls} conn=${conn} seat=${seat} />`) : null}
    ${you.seat == null ? html`<p class="hint">${snap.tournament ? html`You are watching a tournament table. <${LobbyLink} tournament=${snap.tournament} />`
    : you.role === 'spectator' ? 'You are watching.' : 'Pick an empty seat to play, or just watch.'}</p>` : null}
    ${you.role === 'spectator' ? html`<${WatcherName} conn=${conn} />` : null}
  </section>`;
}

// After a hand you won uncontested or mucked: show any of your cards to the table.
function ShowAfter({ conn, cards, shown }) {
  const [chosen, setChosen] = useState([]);
  const [error, setError] = useState(null);
  const hidden = cards.filter((c) => !shown.includes(c));
  if (!hidden.length) return null;
  const toggle = (c) => setChosen(chosen.includes(c) ? chosen.filter((x) => x !== c) : [...chosen, c]);
  const show = async (list) => {
    const answer = await conn.send('show', { cards: list.join(' ') });
    if (answer && answer.ok === false) setError(answer.error); else { setError(null); setChosen([]); }
  };
  return html`<div class="show-after panel" role="group" aria-label="Show your cards">
    <span class="show-label">Show the table:</span>
    ${hidden.map((c) => html`<button class=${`btn small show-card ${chosen.includes(c) ? 'primary' : ''}`} type="button"
      aria-pressed=${chosen.includes(c) ? 'true' : 'false'} aria-label=${`Show ${cardName(c)}`} data-card=${c} onClick=${() => toggle(c)}>${c}</button>`)}
    <button class="btn small" type="button" disabled=${!chosen.length} onClick=${() => show(chosen)}>Show chosen</button>
    <button class="btn small" type="button" onClick=${() => show(hidden)}>Show all</button>
    ${error ? html`<span class="error" role="alert">${error}</span>` : null}
  </div>`;
}

// Your hole cards, in the order you like (kept here, in the browser, for the hand). Three ways
// to reorder: drag with a mouse (HTML5 drag and drop), drag with a finger or a pen (pointer
// events: the card follows the finger and drops where it is let go), or tap one card and then
// another to swap them (also Enter or Space on a focused card).
function MyCards({ cards, folded, up = [] }) {
  // Stud: which of your cards the others see (up) and which only you do (down).
  const ups = new Set(cards.filter((c, i) => c && up[i]));
  const stud = ups.size > 0;
  const [order, setOrder] = useState([]);
  const [picked, setPicked] = useState(null); // the card tapped first, waiting for its swap
  const drag = useRef(null);
  const touch = useRef(null); // {index, id, x, y, moved, el}
  const swallowClick = useRef(false);
  // Keep the player's order; cards dealt since (redraws) join at the end.
  const shown = useMemo(() => {
    const kept = order.filter((c) => cards.includes(c));
    return [...kept, ...cards.filter((c) => !kept.includes(c))];
  }, [order, cards]);
  const move = (from, to) => {
    if (from == null || to == null || from === to) return;
    const next = [...shown];
    next.splice(to, 0, next.splice(from, 1)[0]);
    setOrder(next);
  };
  const drop = (target) => (e) => {
    e.preventDefault();
    move(drag.current, target);
    drag.current = null;
  };
  const tap = (card) => {
    if (swallowClick.current) { swallowClick.current = false; return; }
    if (!card) return;
    if (picked == null || !shown.includes(picked)) { setPicked(card); return; }
    if (picked === card) { setPicked(null); return; }
    const next = [...shown];
    const a = next.indexOf(picked);
    const b = next.indexOf(card);
    [next[a], next[b]] = [next[b], next[a]];
    setOrder(next);
    setPicked(null);
  };
  const release = (el) => { if (el) { el.style.transform = ''; el.classList.remove('dragging'); } };
  const pointer = (i) => ({
    onPointerDown: (e) => {
      // The mouse has HTML5 drag and drop; a finger has these handlers only (a long press would
      // otherwise start the browser's own touch drag, which fights them).
      e.currentTarget.draggable = e.pointerType === 'mouse';
      if (e.pointerType === 'mouse') return;
      touch.current = { index: i, id: e.pointerId, x: e.clientX, y: e.clientY, moved: false, el: e.currentTarget };
    },
    onPointerMove: (e) => {
      const t = touch.current;
      if (!t || t.id !== e.pointerId) return;
      const dx = e.clientX - t.x;
      const dy = e.clientY - t.y;
      if (!t.moved && Math.hypot(dx, dy) < 10) return;
      if (!t.moved) {
        t.moved = true;
        t.el.classList.add('dragging');
        if (t.el.setPointerCapture) t.el.setPointerCapture(e.pointerId);
      }
      e.preventDefault();
      t.el.style.transform = `translate(${dx}px, ${dy}px)`;
    },
    onPointerUp: (e) => {
      const t = touch.current;
      if (!t || t.id !== e.pointerId) return;
      touch.current = null;
      release(t.el);
      if (!t.moved) return; // a tap: the click that follows swaps
      swallowClick.current = true;
      setTimeout(() => { swallowClick.current = false; }, 400);
      const under = document.elementFromPoint(e.clientX, e.clientY);
      const target = under && under.closest('.my-card');
      if (target && target.dataset.index != null) move(t.index, Number(target.dataset.index));
    },
    onPointerCancel: () => { if (touch.current) release(touch.current.el); touch.current = null; },
  });
  return html`<div class=${`my-cards ${folded ? 'folded' : ''} ${shown.length > 14 ? 'many' : ''}`} aria-label="Your cards" role="list">
    ${shown.map((c, i) => html`<div class=${`my-card ${c && picked === c ? 'picked' : ''} ${stud && !ups.has(c) ? 'down' : ''}`} role="listitem" key=${c || i}
        data-index=${i}
        onDragStart=${(e) => { drag.current = i; e.dataTransfer.setData('text/plain', String(c)); e.dataTransfer.effectAllowed = 'move'; }}
        onDragOver=${(e) => e.preventDefault()} onDrop=${drop(i)} ...${pointer(i)}>
      <button class="my-card-btn" type="button" aria-pressed=${c && picked === c ? 'true' : 'false'} onClick=${() => tap(c)}
        aria-label=${`${cardName(c)}${stud ? (ups.has(c) ? ', up' : ', down') : ''}: ${picked && picked !== c ? `swap with ${cardName(picked)}` : 'tap, then tap another card to swap'}`}>
        <${Card} card=${c} />
      </button>
    </div>`)}
  </div>`;
}

export function Pills({ pills }) {
  return html`<div class="pills" role="group" aria-label="Your hand strength">
    ${pillItems(pills).map((p) => html`<span class=${`pill ${p.nuts ? 'nuts' : ''}`} data-category=${p.category}>
        <b>${p.category}</b> ${p.text}${p.nuts ? html` <span class="nuts-badge">NUTS</span>` : null}
      </span>`)}
  </div>`;
}

function Picker({ conn, variants, choices, deadline }) {
  const [game, setGame] = useState(choices[0] || '');
  const [hole, setHole] = useState('');
  const [betting, setBetting] = useState('');
  const [bringIn, setBringIn] = useState('');
  const v = variantById(variants, game);
  const holeOptions = v && v.hole_card_options && v.hole_card_options.length > 1 ? v.hole_card_options : [];
  const bettingOptions = v && v.betting_options && v.betting_options.length > 1 ? v.betting_options : [];
  const choose = (id) => { setGame(id); setHole(''); setBetting(''); setBringIn(''); };
  const pick = () => {
    const options = {};
    if (hole) options.hole_cards = Number(hole);
    if (betting) options.betting = betting;
    if (bringIn) options.bring_in = bringIn;
    conn.send('pick', { game, options });
  };
  return html`<div class="picker panel" role="group" aria-label="Pick the game">
    <div class="row"><strong>Your pick: the next game</strong> <${Countdown} conn=${conn} deadline=${deadline} /></div>
    <div class="row">
      <select value=${game} onChange=${(e) => choose(e.currentTarget.value)} aria-label="Game to play">
        ${choices.map((id) => html`<option value=${id}>${GAME_NAME(variants, id)}</option>`)}
      </select>
      ${holeOptions.length ? html`<select value=${hole} onChange=${(e) => setHole(e.currentTarget.value)} aria-label="Hole cards">
        <option value="">${v.hole_cards} cards</option>
        ${holeOptions.filter((h) => h !== v.hole_cards).map((h) => html`<option value=${h}>${h} cards</option>`)}
      </select>` : null}
      ${bettingOptions.length ? html`<select value=${betting || v.betting} onChange=${(e) => setBetting(e.currentTarget.value)} aria-label="Betting limit">
        ${bettingOptions.map((b) => html`<option value=${b}>${BETTING_NAMES[b] || b}</option>`)}
      </select>` : null}
      ${v && v.bring_in ? html`<select value=${bringIn || v.bring_in} onChange=${(e) => setBringIn(e.currentTarget.value)} aria-label="Bring-in by">
        <option value="highest">bring-in: highest card</option><option value="lowest">bring-in: lowest card</option>
      </select>` : null}
      <button class="btn primary" onClick=${pick}>Pick</button>
    </div>
    ${v ? html`<small>${v.summary} <a href=${rulesUrl(game)} onClick=${(e) => { e.preventDefault(); navigate(`${rulesUrl(game)}&back=${encodeURIComponent(`/?room=${conn.room}`)}`); }}>Rules of ${v.name}</a></small>` : null}
  </div>`;
}

const BETTING_NAMES = { 'pot-limit': 'Pot limit', 'no-limit': 'No limit', 'fixed-limit': 'Fixed limit' };

// The straddle toggle's hint: what the choice does (the server decides who posts, at the deal).
const STRADDLE_HINT = (settings, posts) => `${posts && posts.straddle ? `posts ${posts.straddle}` : 'posts a straddle'} the next time you are ${settings.straddle === 'utg' ? 'UTG' : 'UTG or on the button'}, then turns off`;

function SeatControls({ conn, seat }) {
  const [amount, setAmount] = useState('');
  const settings = conn.snapshot.table.settings;
  return html`<div class="seat-controls">
    ${seat.status === 'out' ? html`<button class="btn small" onClick=${() => conn.send('sit_in')}>Sit in</button>`
      : seat.status === 'playing' ? html`<button class="btn small" onClick=${() => conn.send('sit_out')}>${seat.sit_out_next ? 'Sitting out next hand' : 'Sit out'}</button>` : null}
    ${settings.straddle !== 'off' && seat.status !== 'pending' ? html`<span class="straddle-toggle">
      <label><input type="checkbox" checked=${!!seat.straddle_next} onChange=${(e) => conn.send('straddle', { on: e.currentTarget.checked })} aria-describedby="straddle-hint" /> Straddle next hand</label>
      <small id="straddle-hint" class="muted">${STRADDLE_HINT(settings, conn.snapshot.table.posts)}</small></span>` : null}
    <span class="rebuy">
      <input type="number" min="1" max=${settings.starting_stack} placeholder="chips" value=${amount} aria-label="Rebuy amount"
        onInput=${(e) => setAmount(e.currentTarget.value)} />
      <button class="btn small" onClick=${() => amount && conn.send('rebuy', { amount: Number(amount) })}>Rebuy</button>
    </span>
    ${seat.rebuy_requested ? html`<span class="muted">Rebuy of ${seat.rebuy_requested} waits for the host</span>` : null}
    <button class="btn small danger" onClick=${() => conn.leave()}>Leave seat</button>
  </div>`;
}

function Notices({ conn }) {
  const [, setNow] = useState(0);
  useEffect(() => { const t = setInterval(() => setNow((x) => x + 1), 1000); return () => clearInterval(t); }, []);
  const recent = conn.notices.filter((n) => Date.now() - n.at < 6000);
  return html`<div class="notices" aria-live="polite">${recent.map((n) => html`<div class="notice">${n.text}</div>`)}</div>`;
}
