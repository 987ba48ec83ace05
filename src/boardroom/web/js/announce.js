// What a screen reader hears at the table (docs/accessibility.md). Every update's events are put
// into words: each action ("Bob raises to 48"), each new board card ("Board B, turn: ten of
// spades"), redraws (a count for others, the cards for you), shown hands, allocations and the
// pots won with their points go to a polite live region; your turn, with what you may do and
// the amounts, to an assertive one. The words come only from what this viewer's events and
// view carry (cards it may not see are null there), so nothing announced can name a hidden card.
import { html } from './html.js';
import { cardName } from './cards.js';
import { equitySentences } from './words.js';
import { seatInHand } from './seats.js';

const KEPT = 400; // announcements kept on the connection (the page shows the last few)
const SHOWN = 12;
let counter = 0;

const STREETS = { preflop: 'preflop', flop: 'flop', turn: 'turn', river: 'river', bomb: 'bomb street',
  third: 'third street', fourth: 'fourth street', fifth: 'fifth street', sixth: 'sixth street', seventh: 'seventh street' };
const FRACTIONS = { 2: ['half', 'halves'], 3: ['third', 'thirds'], 4: ['quarter', 'quarters'], 5: ['fifth', 'fifths'], 6: ['sixth', 'sixths'] };

export const streetName = (street) => STREETS[street] || (street ? String(street) : '');

// How a board is called: "Board B", "the Christmas card" (XMAS), or nothing in a one-board game.
export function boardLabel(name, boards) {
  if (!boards || !boards.length) return `Board ${name}`;
  if (boards.length === 1 && boards[0].name === name) return '';
  const spec = boards.find((b) => b.name === name);
  if (spec && spec.size === 1 && !boards.some((b) => b.tilted)) return 'Christmas card';
  return `Board ${name}`;
}

// "a, b and c"
export function listing(items) {
  const list = items.filter((x) => x != null && x !== '');
  if (list.length <= 1) return list.join('');
  return `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`;
}

// Only the cards this viewer may see (a hidden card is null and is never named).
export const cardsSpoken = (cards) => listing((cards || []).filter(Boolean).map(cardName));

// Exact points as words: "2", "1 and a half", "2 thirds" (the server sends fractions as "5/3").
export function pointsSpoken(value) {
  const [n, d = '1'] = String(value).split('/');
  const num = Number(n);
  const den = Number(d);
  if (!Number.isInteger(num) || !Number.isInteger(den) || den <= 0) return String(value);
  if (den === 1) return String(num);
  const whole = Math.trunc(num / den);
  const part = num - whole * den;
  const words = FRACTIONS[den];
  const frac = words ? (part === 1 ? `${den === 2 ? 'a' : 'one'} ${words[0]}` : `${part} ${words[1]}`) : `${part} over ${den}`;
  return whole ? `${whole} and ${frac}` : frac;
}

// A hand's pills (the viewer's hand strength) as {category, text, nuts}, whatever shape the
// view gives them: the room's Pills and the table summary read them alike.
export function pillItems(pills) {
  if (!pills) return [];
  const items = Array.isArray(pills) ? pills : Object.entries(pills).map(([category, value]) => (
    typeof value === 'object' && value !== null ? { category, ...value } : { category, text: value }));
  return items.map((p) => ({
    category: p.category || p.name,
    text: p.description || p.hand || (typeof p.text === 'string' && p.category && p.text.startsWith(`${p.category}: `)
      ? p.text.slice(p.category.length + 2) : p.text) || (p.value == null ? '—' : String(p.value)),
    nuts: !!p.nuts,
  }));
}

// Who a seat is, for this viewer: "you", or the name at the table.
function who(conn, number) {
  const you = conn.you || {};
  if (number != null && you.seat === number) return { you: true, name: 'You' };
  const seat = conn.snapshot && conn.snapshot.table.seats[number];
  return { you: false, name: seat && seat.name ? seat.name : `Seat ${number + 1}` };
}

const tableName = (conn, tableSeat) => {
  const you = conn.you || {};
  if (you.seat === tableSeat) return 'you';
  const seat = conn.snapshot && conn.snapshot.table.seats[tableSeat];
  return seat && seat.name ? seat.name : `Seat ${tableSeat + 1}`;
};

// "Bob raises" / "You raise"
const says = (person, third, second) => `${person.name} ${person.you ? second : third}`;

function potName(index) {
  return index ? `Side pot ${index}` : 'The pot';
}

// The results in the view after this update: each pot's (each run's share of it, in a hand run
// more than once) categories and points (exact).
function resultsOf(snapshot) {
  const view = snapshot && (snapshot.hand || (snapshot.last_hand && snapshot.last_hand.view));
  return (view && view.results) || [];
}

function potText(state, conn, event, after) {
  const name = (i) => who(conn, i).name;
  const winners = event.shares.map(([seat, chips]) => `${says(who(conn, seat), 'wins', 'win')} ${chips}`);
  const results = resultsOf(after);
  const run = event.run || 1;
  // A hand run more than once scores each run's share on its own: say which run this is.
  const runs = run > 1 || results.some((r) => (r.run || 1) > 1);
  let text = `${runs ? `Run ${run}: ` : ''}${potName(event.index)} of ${event.amount}: ${listing(winners)}.`;
  const result = results.find((r) => r.index === event.index && (r.run || 1) === run) || null;
  if (result && event.showdown) {
    if (result.categories && result.categories.length > 1) {
      text += ` ${result.categories.map(([cat, seats]) => `${cat}: ${seats.length ? listing(seats.map(name)) : 'void'}`).join('; ')}.`;
    }
    const value = (pts) => { const [n, d = 1] = String(pts).split('/').map(Number); return n / d; };
    const scored = (result.points || []).filter(([, pts]) => pts !== '0')
      .sort((a, b) => value(b[1]) - value(a[1])); // most points first (for the order only)
    if (scored.length && result.categories.length > 1 && state.split !== 'hi-lo') {
      text += ` Points: ${scored.map(([seat, pts]) => `${name(seat)} ${pointsSpoken(pts)}`).join(', ')}.`;
    }
  }
  return text;
}

function legalText(legal, sizes, hand) {
  if (!legal) return '';
  if (legal.draw != null) {
    return `Your turn to draw: throw up to ${legal.draw} card${legal.draw === 1 ? '' : 's'}, or stand pat. Press 1 to ${Math.min(legal.draw, 9) || 1} to mark a card, then Enter.`;
  }
  const options = [];
  if (legal.check) options.push('check');
  if (legal.call != null) options.push(`call ${legal.call}`);
  if (legal.bring_in != null) options.push(`bring in for ${legal.bring_in}`);
  if (legal.raise_min != null && legal.raise_max != null) {
    const word = legal.is_bet ? 'bet' : 'raise to';
    options.push(legal.raise_min === legal.raise_max ? `${word} ${legal.raise_min}`
      : `${word} ${legal.raise_min} up to ${legal.raise_max}`);
  }
  if (legal.fold) options.push('fold');
  const pots = hand && hand.pots ? hand.pots.reduce((sum, p) => sum + p.amount, 0) : 0; // bets included
  const pot = sizes && sizes.pot != null && legal.raise_max != null ? ` A pot-sized raise is to ${sizes.pot}.` : '';
  return `Your turn: you may ${listing(options).replace(/ and ([^,]*)$/, ' or $1')}. Pot ${pots}.${pot}`;
}

// The words for one update: [text, politeness] pairs; `after` is the snapshot after it.
export function describeUpdate(state, conn, events, after) {
  const out = [];
  const polite = (text) => text && out.push([text, 'polite']);
  const you = conn.you || {};
  const variantBoards = state.boards || null;
  const antes = [];
  let antesAt = -1; // where the antes' line goes: after the hand's first line
  const redraws = [];
  const dealtBoards = events.some((e) => e.kind === 'hand' && e.event && e.event.type === 'BoardDealt');
  const lastAct = new Map(); // seat -> index in out of its last betting action
  for (const payload of events) {
    const { kind, data = {} } = payload;
    if (kind === 'hand_started') {
      state.street = null;
      state.roundBet = 0;
      polite(`Hand ${data.hand_no}: ${data.name || data.game}. ${tableName(conn, data.button) === 'you' ? 'You have' : `${tableName(conn, data.button)} has`} the button.`);
      continue;
    }
    if (kind === 'turn') {
      if (you.seat != null && data.seat === you.seat) {
        const hand = after && after.hand;
        const legal = (hand && hand.legal) || data.legal;
        out.push([legalText(legal, after && after.sizes, hand), 'assertive']);
      }
      continue;
    }
    if (kind === 'allocating') {
      if (you.seat != null && (data.seats || []).includes(you.seat) && !state.allocAsked) {
        state.allocAsked = true;
        out.push(['Your turn to allocate your cards. Focus a card and press A, B or H to move it, U to take it back, then Commit. Press question mark for every key.', 'assertive']);
      }
      continue;
    }
    if (kind === 'game_changed') {
      polite(`The game changes to ${data.name}.`);
      continue;
    }
    if (kind === 'equity') {
      equitySentences(data).forEach(polite);
      continue;
    }
    if (kind === 'pick_requested') {
      if (you.seat != null && data.seat === you.seat) out.push(['Your pick: choose the game of the next hand.', 'assertive']);
      continue;
    }
    if (kind !== 'hand' || !payload.event) continue;
    const e = payload.event;
    const person = e.seat != null ? who(conn, e.seat) : null;
    switch (e.type) {
      case 'AntePosted':
        if (antesAt < 0) antesAt = out.length;
        antes.push(e.amount);
        break;
      case 'BlindPosted':
        state.roundBet = Math.max(state.roundBet || 0, e.amount);
        polite(`${says(person, 'posts', 'post')} the ${e.blind} blind of ${e.amount}.`);
        break;
      case 'BringInPosted':
        state.roundBet = Math.max(state.roundBet || 0, e.amount);
        polite(`${says(person, 'brings', 'bring')} in for ${e.amount}.`);
        lastAct.set(e.seat, out.length - 1);
        break;
      case 'StreetStarted':
        state.street = e.street;
        if (e.street !== state.firstStreet) state.roundBet = 0; // the blinds come before it
        state.allocAsked = false;
        if (!dealtBoards && e.street !== state.firstStreet) {
          polite(`${streetName(e.street).replace(/^./, (c) => c.toUpperCase())}.`);
        }
        break;
      case 'BoardDealt': {
        const where = boardLabel(e.board, variantBoards);
        const street = streetName(state.street);
        const head = where ? `${where}, ${street}` : street.replace(/^./, (c) => c.toUpperCase());
        polite(`${head}: ${cardsSpoken(e.cards)}.`);
        break;
      }
      case 'Discarded': {
        const n = e.cards.length;
        if (person) polite(n ? `${says(person, 'draws', 'draw')} ${n} card${n === 1 ? '' : 's'}${person.you ? `, throwing ${cardsSpoken(e.cards)}` : ''}.` : `${says(person, 'stands', 'stand')} pat.`);
        break;
      }
      case 'HoleDealt': {
        const seen = e.cards.filter(Boolean);
        if (person && person.you) {
          if (seen.length) {
            const ups = e.cards.filter((c, i) => c && e.up && e.up[i]);
            polite(ups.length && ups.length < seen.length
              ? `You are dealt ${cardsSpoken(e.cards.filter((c, i) => !(e.up && e.up[i])))} face down and ${cardsSpoken(ups)} face up.`
              : `You are dealt ${cardsSpoken(seen)}${ups.length ? ' face up' : ''}.`);
          }
        } else if (person) {
          const ups = e.cards.filter((c, i) => c && e.up && e.up[i]);
          if (ups.length) polite(`${person.name} is dealt ${cardsSpoken(ups)} face up.`);
        }
        break;
      }
      case 'Redrawn':
        if (person && person.you) polite(`You redraw ${e.cards.length}: ${cardsSpoken(e.cards)}.`);
        else if (person) redraws.push([person.name, e.cards.length]);
        break;
      case 'Folded':
        polite(`${says(person, 'folds', 'fold')}.`);
        lastAct.set(e.seat, out.length - 1);
        break;
      case 'Checked':
        polite(`${says(person, 'checks', 'check')}.`);
        lastAct.set(e.seat, out.length - 1);
        break;
      case 'Called':
        polite(`${says(person, 'calls', 'call')} ${e.amount}.`);
        lastAct.set(e.seat, out.length - 1);
        break;
      case 'RaisedTo': {
        const bet = !(state.roundBet > 0);
        state.roundBet = Math.max(state.roundBet || 0, e.amount);
        polite(bet ? `${says(person, 'bets', 'bet')} ${e.amount}.` : `${says(person, 'raises', 'raise')} to ${e.amount}.`);
        lastAct.set(e.seat, out.length - 1);
        break;
      }
      case 'UncalledReturned':
        polite(`${e.amount} uncalled ${e.amount === 1 ? 'chip goes' : 'chips go'} back to ${person.you ? 'you' : person.name}.`);
        break;
      case 'HandShown':
        polite(`${says(person, 'shows', 'show')} ${cardsSpoken(e.cards)}.`);
        break;
      case 'HandMucked':
        polite(`${says(person, 'mucks', 'muck')}.`);
        break;
      case 'AllocationStarted':
        polite(`Allocation: ${listing(e.seats.map((s) => who(conn, s).name))} allocate their cards.`);
        break;
      case 'AllocationCommitted':
        polite(`${says(person, 'has', 'have')} allocated${e.automatic ? ' (by the clock)' : ''}.`);
        break;
      case 'AllocationsRevealed':
        for (const [seat, parts] of e.allocations) {
          const p = who(conn, seat);
          polite(`${says(p, 'allocates', 'allocate')} ${parts.map(([slot, cards]) => `${slot}: ${cardsSpoken(cards)}`).join('; ')}.`);
        }
        break;
      case 'PotAwarded':
        polite(potText(state, conn, e, after));
        break;
      default:
        break;
    }
  }
  // All-in: said after the seat's last action of this update, from the view after it.
  const seatsAfter = after && after.hand ? after.hand.seats : null;
  if (seatsAfter) {
    for (const [seat, at] of lastAct) {
      const s = seatsAfter[seat];
      if (s && s.all_in && out[at] && !/^.* folds?\.$/.test(out[at][0])) out[at][0] = out[at][0].replace(/\.$/, ', all-in.');
    }
  }
  if (antes.length) {
    const same = antes.every((a) => a === antes[0]);
    out.splice(antesAt, 0, [same ? `Everyone antes ${antes[0]}.` : `Antes posted: ${antes.join(', ')}.`, 'polite']);
  }
  if (redraws.length) {
    // Everyone still in gets the same number (docs/rules.md), but say each count if not.
    const n = redraws[0][1];
    const cards = (k) => `${k} ${k === 1 ? 'card' : 'cards'}`;
    out.push([redraws.every(([, k]) => k === n)
      ? `Redraws: ${cards(n)} each to ${listing(redraws.map(([name]) => name))}.`
      : `Redraws: ${listing(redraws.map(([name, k]) => `${cards(k)} to ${name}`))}.`, 'polite']);
  }
  return out;
}

// Follow a connection's updates and keep its announcements (conn.announcements, newest last).
export function attachAnnouncer(conn, getVariant) {
  const state = { street: null, roundBet: 0, boards: null, firstStreet: null };
  conn.announcements = [];
  conn.announce = (text, politeness = 'polite') => {
    counter += 1;
    conn.announcements = [...conn.announcements.slice(-(KEPT - 1)), { id: counter, text, politeness }];
  };
  conn.listeners = conn.listeners || [];
  conn.listeners.push((events, before, after) => {
    // The bet to beat, from the view before (a page opened mid-round knows it too).
    if (before && before.hand && before.hand.seats) state.roundBet = Math.max(0, ...before.hand.seats.map((s) => s.bet || 0));
    const variant = getVariant(after);
    state.boards = variant ? variant.boards : null;
    state.split = variant ? variant.split : null;
    state.firstStreet = variant && variant.streets && variant.streets[0] ? variant.streets[0].name : null;
    for (const [text, politeness] of describeUpdate(state, conn, events, after)) conn.announce(text, politeness);
  });
}

// The table in words, on demand (the S key): boards, your cards and pills, pot and pool, every
// seat's stack and bet, and who is to act.
export function tableSummary(conn, variant) {
  const snap = conn.snapshot;
  if (!snap) return 'Not connected yet.';
  const table = snap.table;
  const display = conn.displayHand();
  const you = conn.you || {};
  const parts = [];
  const game = variant ? variant.name : table.game || '';
  if (!display) {
    parts.push(`${game}. No hand in play${table.phase === 'waiting' ? ': waiting for players' : ''}.`);
  } else {
    const hand = display.hand;
    parts.push(`Hand ${display.handNo || table.hand_no}, ${game}${display.live && hand.street ? `, ${streetName(hand.street)}` : display.live ? '' : ', finished'}.`);
    const boards = Object.entries(hand.boards || {});
    const dealt = boards.filter(([, cards]) => cards.length);
    if (boards.length) {
      const label = (name) => (boards.length > 1 ? boardLabel(name, variant && variant.boards) || `Board ${name}` : 'Board');
      parts.push(dealt.length ? dealt.map(([name, cards]) => `${label(name)}: ${cardsSpoken(cards)}.`).join(' ') : 'No board cards yet.');
    }
    const mine = you.seat != null ? seatInHand(hand, you.seat) : null;
    if (mine) parts.push(mine.cards.length ? `Your cards: ${cardsSpoken(mine.cards)}.` : 'You have no cards.');
    const pills = pillItems(hand.pills);
    if (pills.length) parts.push(`Your hand: ${pills.map((p) => `${p.category}, ${p.text}${p.nuts ? ', the nuts' : ''}`).join('; ')}.`);
    const pots = (hand.pots || []).reduce((sum, p) => sum + p.amount, 0); // bets included
    const bets = hand.seats.reduce((sum, s) => sum + (s.bet || 0), 0);
    const pool = hand.pool_size;
    if (display.live) parts.push(`Pot ${pots}${bets ? `, of which ${bets} in bets this round` : ''}${pool != null ? `. Pool ${pool} cards` : ''}.`);
    const seatWords = hand.seats.map((s) => {
      const tableSeat = s.seat;
      const name = tableSeat === you.seat ? 'You' : ((table.seats[tableSeat] || {}).name || `Seat ${tableSeat + 1}`);
      const notes = [];
      if (s.folded) notes.push('folded');
      else if (s.all_in) notes.push('all-in');
      if (s.bet) notes.push(`bet ${s.bet}`);
      const others = s.cards.filter(Boolean);
      if (tableSeat !== you.seat && others.length) notes.push(`showing ${cardsSpoken(others)}`);
      if (hand.button === tableSeat) notes.push('button');
      return `${name} ${s.stack}${notes.length ? ` (${notes.join(', ')})` : ''}`;
    });
    parts.push(`Stacks: ${seatWords.join('; ')}.`);
  }
  if (table.turn && table.turn.seat != null && display && display.live) {
    parts.push(table.turn.seat === you.seat ? 'You are to act.' : `${(table.seats[table.turn.seat] || {}).name || `Seat ${table.turn.seat + 1}`} is to act.`);
  }
  const legal = display && display.live && display.hand.legal;
  if (legal) parts.push(legalText(legal, snap.sizes, display.hand).replace(/^Your turn: /, ''));
  return parts.join(' ');
}

// The two live regions: polite (every action) and assertive (your turn, the summary).
export function LiveRegions({ conn }) {
  const all = conn.announcements || [];
  const polite = all.filter((a) => a.politeness === 'polite').slice(-SHOWN);
  const loud = all.filter((a) => a.politeness === 'assertive').slice(-1);
  return html`<div class="live-regions">
    <div class="sr-only" id="announce-polite" role="log" aria-live="polite" aria-relevant="additions" aria-label="Table announcements">
      ${polite.map((a) => html`<p key=${a.id} data-id=${a.id}>${a.text}</p>`)}
    </div>
    <div class="sr-only" id="announce-assertive" aria-live="assertive" aria-atomic="true">
      ${loud.map((a) => html`<p key=${a.id} data-id=${a.id}>${a.text}</p>`)}
    </div>
  </div>`;
}
