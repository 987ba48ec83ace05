// The room's hand history: the list of hands, a step-by-step replayer of one hand (every deal,
// bet, redraw, allocation and result the history file records), downloads of the file and of
// the ledger. The replayer reads the history's action strings; it does not replay rules.
import { html } from './html.js';
import { useEffect, useState } from 'preact/hooks';
import { downloadHistory, getHand, getHands, ledgerUrl } from './api.js';
import { loadRoom } from './store.js';
import { navigate } from './nav.js';
import { Card } from './cards.js';
import { verifyHistory } from './verify.js';
import { HandStory, potPointsSentence } from './words.js';

const splitCards = (text) => (text.match(/.{2}/g) || []).map((c) => (c === '??' ? null : c));

// One PHH action string, read for display: who, what, cards, amount, board (from "# board B").
export function readAction(text) {
  const [body, comment = ''] = text.split('#').map((s) => s.trim());
  const words = body.split(/\s+/);
  const board = (comment.match(/board\s+(\w+)/) || [])[1] || null;
  if (words[0] === 'd') {
    return { dealer: true, kind: words[1], player: words[2] && /^p\d+$/.test(words[2]) ? words[2] : null,
      cards: splitCards(words[words.length - 1] || ''), board, comment, text };
  }
  return { player: words[0], kind: words[1], rest: words.slice(2), comment, text,
    cards: words[1] === 'sm' && words[2] ? splitCards(words[2]) : null, board };
}


// The runs after the first of a hand run more than once (`_runs.runs`: each run's deal lines)
// and what every run's share of every pot paid (`_runs.awards`), as the history writes them.
export function laterRuns(history) {
  return ((history._runs || {}).runs || []).map((run, i) => ({ number: i + 2, actions: run.actions || [] }));
}
const runAwards = (history) => (history._runs || {}).awards || [];

// Every step of the replay: the hand's actions (the first run's deals among them), then each
// later run's deals, so a hand run twice steps through both runs.
export function replaySteps(history) {
  return [...(history.actions || []).map((text) => ({ text, run: 1 })),
    ...laterRuns(history).flatMap((run) => run.actions.map((text) => ({ text, run: run.number })))];
}

const dealTo = (boards, a) => {
  const name = a.board || 'A';
  boards[name] = [...(boards[name] || []), ...a.cards];
};

// The cards after `step` steps: each player's hole cards and the boards of the first run, and
// each later run begun by then: its boards (the cards dealt before the runs parted, then its
// own) and each player's redraws in it. `done` says the run is fully dealt.
function stateAt(history, step) {
  const players = history.players || [];
  const holes = players.map(() => []);
  const boards = {};
  const labels = (p) => Number(p.slice(1)) - 1;
  const actions = history.actions || [];
  const read = (text) => {
    const a = readAction(text);
    if (a.dealer && a.kind === 'dh' && a.player) holes[labels(a.player)].push(...a.cards);
    else if (a.dealer && a.kind === 'db') dealTo(boards, a);
    else if (!a.dealer && a.kind === 'sm' && a.cards) holes[labels(a.player)] = a.cards;
  };
  actions.slice(0, step).forEach(read);
  const runs = [];
  const later = laterRuns(history);
  if (later.length) {
    const first = {};
    actions.forEach((text) => { const a = readAction(text); if (a.dealer && a.kind === 'db') dealTo(first, a); });
    let at = actions.length;
    for (const run of later) {
      if (step <= at) break;
      const deals = run.actions.map(readAction);
      const again = {};
      deals.filter((a) => a.kind === 'db').forEach((a) => dealTo(again, a));
      // Before the runs parted every run had the same cards: the first run's boards less what
      // this run deals again.
      const shared = Object.fromEntries(Object.entries(first).map(([name, cards]) => [name, cards.slice(0, cards.length - (again[name] || []).length)]));
      const runBoards = { ...shared };
      const redraws = {};
      deals.slice(0, step - at).forEach((a) => {
        if (a.kind === 'db') dealTo(runBoards, a);
        else if (a.kind === 'dh' && a.player) redraws[labels(a.player)] = [...(redraws[labels(a.player)] || []), ...a.cards];
      });
      runs.push({ number: run.number, boards: runBoards, redraws, done: step >= at + deals.length });
      at += deals.length;
    }
  }
  return { holes, boards, runs };
}

// One run's share of every pot, in the table's words ("Bob wins run 2's share of the main pot
// (75)"), from `_runs.awards`.
function runShareSentences(history, number) {
  const players = history.players || [];
  const story = new HandStory({ names: players.map((name, i) => name || `p${i + 1}`) });
  story.runs = laterRuns(history).length + 1;
  return runAwards(history).filter((award) => award.run === number).map((award) => story.say({
    type: 'PotAwarded', index: award.pot, amount: award.amount, showdown: true, run: award.run,
    shares: Object.entries(award.shares).map(([label, chips]) => [Number(label.slice(1)) - 1, chips]),
  }));
}

// A run's boards, the redraws it dealt and, once it is fully dealt, its share of every pot.
function RunBoards({ history, number, boards, redraws = {}, done }) {
  const players = history.players || [];
  return html`<div class="replay-run" role="group" aria-label=${`Run ${number}`} data-run=${number}>
    <h3>Run ${number}</h3>
    <${ReplayBoards} boards=${boards} />
    ${Object.entries(redraws).map(([i, cards]) => html`<p class="run-redraws">${players[i] || `p${Number(i) + 1}`} draws ${cards.map((c, k) => html`<${Card} key=${k} card=${c} small=${true} />`)}</p>`)}
    ${done ? html`<ul class="run-shares">${runShareSentences(history, number).map((line) => html`<li>${line}</li>`)}</ul>` : null}
  </div>`;
}

function ReplayBoards({ boards }) {
  return html`<div class="replay-boards">
    ${Object.entries(boards).map(([name, cards]) => html`<div class="board" data-board=${name}><span class="board-name">${name}</span>
      <div class="board-cards">${cards.map((c, i) => html`<${Card} key=${i} card=${c} small=${true} />`)}</div></div>`)}
  </div>`;
}

// Every player's stack, bet in the current betting round and the pot after `step` actions, read
// from the history's numbers (docs/history.md): antes, then blinds, are posted before the first
// action, `cbr` is a bet or raise *to* a total for the round, `cc` checks or calls what is owed,
// `pb` posts the bring-in. A dealer action after a player's action starts a new round. At the
// last step (`steps`: the replay's, every run's deals included) the stacks are the history's
// `finishing_stacks` (pots won, uncalled bets returned).
export function stacksAt(history, step, steps = (history.actions || []).length) {
  const players = history.players || history.starting_stacks || [];
  const start = players.map((_, i) => (history.starting_stacks || [])[i] || 0);
  const stacks = [...start];
  const bets = players.map(() => 0);
  const pay = (i, amount) => {
    const paid = Math.max(0, Math.min(amount, stacks[i]));
    stacks[i] -= paid;
    return paid;
  };
  players.forEach((_, i) => pay(i, (history.antes || [])[i] || 0));
  // Heads-up the button (p2) posts the small blind and p1 the big one (PHH's reading of
  // `blinds_or_straddles = [small, big]` with two players).
  const blinds = [...(history.blinds_or_straddles || [])];
  if (players.length === 2 && blinds.length === 2) blinds.reverse();
  players.forEach((_, i) => { bets[i] = pay(i, blinds[i] || 0); });
  const actions = history.actions || [];
  let acted = false; // a player acted since the round began
  for (const text of actions.slice(0, step)) {
    const a = readAction(text);
    if (a.dealer) {
      if (acted) { bets.fill(0); acted = false; }
      continue;
    }
    const i = Number(a.player.slice(1)) - 1;
    if (!(i >= 0 && i < players.length)) continue;
    if (a.kind === 'cbr') {
      const to = Number(a.rest[0]);
      if (Number.isFinite(to)) bets[i] += pay(i, to - bets[i]);
      acted = true;
    } else if (a.kind === 'cc') {
      bets[i] += pay(i, Math.max(...bets) - bets[i]);
      acted = true;
    } else if (a.kind === 'pb') {
      bets[i] += pay(i, (history.bring_in || 0) - bets[i]);
      acted = true;
    } else if (a.kind === 'f') {
      acted = true;
    }
  }
  const over = step >= steps && Array.isArray(history.finishing_stacks);
  const final = over ? players.map((_, i) => history.finishing_stacks[i]) : stacks;
  const pot = over ? 0 : start.reduce((sum, s, i) => sum + s - stacks[i], 0);
  return { stacks: final, bets: over ? bets.map(() => 0) : bets, pot, over };
}

// The history's actions as the table's own words (words.js), one sentence an action: each PHH
// action is read as the engine event it records (a `cc` owing nothing is a check), and told by
// the same HandStory as the live action log.
export function historySentences(history) {
  const players = history.players || [];
  const seatOf = (p) => Number(String(p).slice(1)) - 1;
  const story = new HandStory({ names: players.map((name, i) => name || `p${i + 1}`),
    stacks: (history.starting_stacks || []).slice() });
  (history.antes || []).forEach((amount, seat) => { if (amount) story.say({ type: 'AntePosted', seat, amount }); });
  const blinds = [...(history.blinds_or_straddles || [])];
  if (players.length === 2 && blinds.length === 2) blinds.reverse();
  blinds.forEach((amount, seat) => { if (amount) story.say({ type: 'BlindPosted', seat, amount, blind: 'forced' }); });
  story.say({ type: 'StreetStarted', street: 'first' });
  let acted = false;
  return (history.actions || []).map((text) => {
    const a = readAction(text);
    if (a.dealer) {
      if (acted) { story.say({ type: 'StreetStarted', street: 'next' }); acted = false; }
      if (a.kind === 'db') return story.say({ type: 'BoardDealt', board: a.board || 'A', cards: a.cards.map((c) => c || '??') });
      if (a.kind === 'dh' && a.player) {
        const seat = seatOf(a.player);
        if (/redraw/.test(a.comment)) return story.say({ type: 'Redrawn', seat, cards: a.cards, up: a.cards.map(() => false) });
        return story.say({ type: 'HoleDealt', seat, cards: a.cards, up: a.cards.map(() => false) });
      }
      return text;
    }
    const seat = seatOf(a.player);
    acted = true;
    switch (a.kind) {
      case 'f': return story.say({ type: 'Folded', seat });
      case 'cc': {
        const owed = story.top - (story.bets[seat] || 0);
        const stack = story.stacks && story.stacks[seat] != null ? story.stacks[seat] : owed;
        return owed > 0 ? story.say({ type: 'Called', seat, amount: Math.min(owed, stack) }) : story.say({ type: 'Checked', seat });
      }
      case 'cbr': return story.say({ type: 'RaisedTo', seat, amount: Number(a.rest[0]) });
      case 'pb': return story.say({ type: 'BringInPosted', seat, amount: history.bring_in || 0 });
      case 'sm': return a.cards ? story.say({ type: 'HandShown', seat, cards: a.cards.map((c) => c || '??') }) : story.say({ type: 'HandMucked', seat });
      case '_allocate': {
        const parts = a.rest.filter((w) => w.includes(':')).map((w) => {
          const [name, cards] = w.split(':');
          return [name, splitCards(cards).map((c) => c || '??')];
        });
        return story.say({ type: 'AllocationsRevealed', allocations: [[seat, parts]] });
      }
      default: return text;
    }
  });
}

// A later run's deals in the table's words: "Run 2, board A: Kh 7c", "Run 2: Ann draws 2
// extra cards".
function runSentences(history, run) {
  const players = history.players || [];
  const name = (label) => players[Number(label.slice(1)) - 1] || label;
  return run.actions.map((text) => {
    const a = readAction(text);
    if (a.kind === 'db') return `Run ${run.number}, board ${a.board || 'A'}: ${a.cards.map((c) => c || '??').join(' ')}`;
    if (a.kind === 'dh' && a.player) return `Run ${run.number}: ${name(a.player)} draws ${a.cards.length} extra card${a.cards.length === 1 ? '' : 's'}`;
    return text;
  });
}

// What the hand came to: each pot's points (the multi-board games; run by run in a hand run
// more than once) and each player's result.
function historyOutcome(history) {
  const players = history.players || [];
  const awards = runAwards(history);
  const lines = (history._points || []).map((pot, index) => {
    const award = awards[index];
    const said = potPointsSentence(award ? award.pot : index,
      Object.entries(pot).map(([label, value]) => [Number(label.slice(1)) - 1, value]), players);
    return award ? `Run ${award.run}: ${said}` : said;
  });
  (history.finishing_stacks || []).forEach((finish, i) => {
    const start = (history.starting_stacks || [])[i];
    if (start == null) return;
    const net = finish - start;
    lines.push(`${players[i] || `p${i + 1}`} ${net > 0 ? `wins ${net}` : net < 0 ? `loses ${-net}` : 'breaks even'} (${start} → ${finish})`);
  });
  return lines;
}

// "Verify this hand": the deal checked in this page with Web Crypto (verify.js), never by
// asking the server; the result (or the first mismatch) is announced to screen readers.
function VerifyDeal({ history }) {
  const [result, setResult] = useState(null);
  const run = () => {
    setResult({ busy: true });
    verifyHistory(history).then(setResult, (e) => setResult({ ok: false, reason: String(e && e.message) }));
  };
  let text = '';
  if (result && result.busy) text = 'Verifying…';
  else if (result && result.ok) text = `Verified in this browser: the seed matches the commitment published before the hand (${result.commitment.slice(0, 12)}…), and all ${result.cards} cards shown came from the deck it and the players' seeds give.`;
  else if (result) text = `Not verified: ${result.reason}`;
  return html`<div class="verify-deal">
    <button class="btn small" onClick=${run} disabled=${result && result.busy}>Verify this hand</button>
    <p class=${`verify-result ${result && !result.busy ? (result.ok ? 'ok' : 'error') : ''}`} role="status" aria-live="polite">${text}</p>
  </div>`;
}

// The replayer's step buttons as drawn icons (a bar and triangles), not the U+23EE/U+23ED
// glyphs that many fonts (Debian's among them) lack.
const STEP_PATHS = {
  first: 'M3 2h2v12H3zM14 2v12L6 8z',
  previous: 'M12 2v12L4 8z',
  next: 'M4 2v12l8-6z',
  last: 'M11 2h2v12h-2zM2 2v12l8-6z',
};
function StepIcon({ to }) {
  return html`<svg class="step-icon" viewBox="0 0 16 16" aria-hidden="true"><path d=${STEP_PATHS[to]} fill="currentColor" /></svg>`;
}

function Replayer({ room, handNo, token }) {
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  const [step, setStep] = useState(0);
  useEffect(() => {
    setData(null);
    getHand(room, handNo, token).then((d) => { setData(d); setStep(replaySteps(d.history).length); }).catch((e) => setError(e.message));
  }, [room, handNo]);
  if (error) return html`<p class="error" role="alert">${error}</p>`;
  if (!data) return html`<p class="muted">Loading hand ${handNo}…</p>`;
  const h = data.history;
  const actions = h.actions || [];
  const steps = replaySteps(h);
  const { holes, boards, runs } = stateAt(h, step);
  const chips = stacksAt(h, step, steps.length);
  const sentences = [...historySentences(h), ...laterRuns(h).flatMap((run) => runSentences(h, run))];
  const ranTwice = laterRuns(h).length > 0;
  const extraFields = Object.entries(h).filter(([k]) => k.startsWith('_') && !['_variant', '_options', '_table_seats', '_hand_no', '_burns'].includes(k));
  return html`<div class="replayer panel" aria-label=${`Hand ${handNo}`}>
    <div class="row spread">
      <h2>Hand #${handNo} <small class="muted">${data.game}</small></h2>
      <button class="btn small" onClick=${() => downloadHistory(room, handNo, token).catch((e) => setError(e.message))}>Download history file</button>
    </div>
    <${VerifyDeal} key=${handNo} history=${h} />
    ${ranTwice ? html`<div class="replay-runs">
      <${RunBoards} history=${h} number=${1} boards=${boards} done=${step >= actions.length} />
      ${runs.map((run) => html`<${RunBoards} key=${run.number} history=${h} ...${run} />`)}
    </div>` : html`<${ReplayBoards} boards=${boards} />`}
    <p class="replay-pot" aria-live="polite">${chips.over ? 'Hand over: the stacks after the pots are paid' : html`Pot <strong>${chips.pot}</strong>`}</p>
    <div class="replay-table-wrap">
    <table class="replay-players">
      <thead><tr><th>Player</th><th>Cards</th><th>Start</th><th>Stack</th><th>Bet</th><th>Finish</th></tr></thead>
      <tbody>${(h.players || []).map((name, i) => html`<tr data-player=${name}>
        <td>${name}</td>
        <td class="cards-cell">${holes[i].map((c, k) => html`<${Card} key=${k} card=${c} small=${true} />`)}</td>
        <td class="start">${(h.starting_stacks || [])[i]}</td>
        <td class="stack">${chips.stacks[i]}</td>
        <td class="bet">${chips.bets[i] || ''}</td>
        <td class="finish">${step === steps.length && h.finishing_stacks ? h.finishing_stacks[i] : ''}</td>
      </tr>`)}</tbody>
    </table>
    </div>
    <div class="replay-controls row">
      <button class="btn small" onClick=${() => setStep(0)} aria-label="First step"><${StepIcon} to="first" /></button>
      <button class="btn small" onClick=${() => setStep(Math.max(0, step - 1))} aria-label="Previous step"><${StepIcon} to="previous" /></button>
      <span class="step" aria-live="polite">Step ${step} / ${steps.length}</span>
      <button class="btn small" onClick=${() => setStep(Math.min(steps.length, step + 1))} aria-label="Next step"><${StepIcon} to="next" /></button>
      <button class="btn small" onClick=${() => setStep(steps.length)} aria-label="Last step"><${StepIcon} to="last" /></button>
    </div>
    <ol class="replay-actions">
      ${steps.map(({ text, run }, i) => html`<li class=${i === step - 1 ? 'current' : i >= step ? 'future' : ''} data-run=${run}>
        <button class="linkish" onClick=${() => setStep(i + 1)}>${sentences[i] || text}</button>
      </li>`)}
    </ol>
    ${step === steps.length ? html`<ul class="replay-outcome">${historyOutcome(h).map((line) => html`<li>${line}</li>`)}</ul>` : null}
    ${extraFields.length ? html`<div class="replay-extra">${extraFields.map(([k, v]) => html`<div><b>${k.slice(1).replace(/_/g, ' ')}</b>: <code>${JSON.stringify(v)}</code></div>`)}</div>` : null}
  </div>`;
}

export function HistoryPage({ room, hand }) {
  const token = loadRoom(room).token;
  const [list, setList] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    document.title = 'Hand history · Boardroom';
    getHands(room, token).then((d) => setList(d.hands)).catch((e) => setError(e.message));
  }, [room]);
  const open = (n) => navigate(`/?room=${encodeURIComponent(room)}&history=1&hand=${n}`);
  return html`<div class="history-page">
    <header class="topbar">
      <a class="brand" href="/" aria-label="Boardroom home" onClick=${(e) => { e.preventDefault(); navigate('/'); }}><span class="logo" aria-hidden="true">♠</span><span class="brand-name">Boardroom</span></a>
      <div class="game-title"><strong>Hand history</strong></div>
      <div class="top-actions">
        <a class="btn small" href=${ledgerUrl(room)} download=${`boardroom-${room}-ledger.csv`}>Download ledger</a>
        <button class="btn small" onClick=${() => navigate(`/?room=${encodeURIComponent(room)}`)}>Back to the table</button>
      </div>
    </header>
    <main class="history-main">
      <nav class="hand-list panel" aria-label="Hands">
        <h2>Hands</h2>
        ${error ? html`<p class="error" role="alert">${error}</p>` : null}
        ${list && !list.length ? html`<p class="muted">No finished hands yet.</p>` : null}
        <ul>${(list || []).slice().reverse().map((row) => html`<li>
          <button class=${`linkish ${row.hand_no === hand ? 'current' : ''}`} onClick=${() => open(row.hand_no)}>
            #${row.hand_no} · ${row.game} · ${row.players.join(', ')}</button></li>`)}</ul>
      </nav>
      ${hand ? html`<${Replayer} room=${room} handNo=${hand} token=${token} />` : html`<p class="muted center-note">Pick a hand to replay it step by step.</p>`}
    </main>
  </div>`;
}
