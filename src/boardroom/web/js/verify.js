// Verify a hand's deal in the page itself (docs/fairness.md, scheme boardroom-fair-v1), with
// Web Crypto and nothing from the server but the history: SHA-256 of the revealed server seed
// must be the commitment; the deck is the sorted deck shuffled by Fisher-Yates with unbiased
// integers (rejection sampling) from the HMAC-SHA256 counter-mode stream (NIST SP 800-108)
// of the seeds; every card the history shows must be the card that deck dealt there.
// The same checks, with the same messages, as boardroom.fairness.check_history.
const SCHEME = 'boardroom-fair-v1';
const FIELD = '_fairness';
const RANKS = '23456789TJQKA';
const SUITS = 'cdhs';
const DECK_SIZE = 52;
const encoder = new TextEncoder();

export class VerifyError extends Error {}

export const cardName = (card) => RANKS[card >> 2] + SUITS[card & 3];

function parseCard(token, where) {
  const rank = RANKS.indexOf(token[0].toUpperCase());
  const suit = SUITS.indexOf((token[1] || '').toLowerCase());
  if (token.length !== 2 || rank < 0 || suit < 0) throw new VerifyError(`${where}: '${token}' is not a card`);
  return rank * 4 + suit;
}

const hexBytes = (hex) => Uint8Array.from(hex.match(/../g) || [], (b) => parseInt(b, 16));
const toHex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');

export async function sha256Hex(bytes) {
  return toHex(await crypto.subtle.digest('SHA-256', bytes));
}

function context(room, handNo, clientSeeds) {
  return encoder.encode([SCHEME, `room ${room}`, `hand ${handNo}`, `seeds ${clientSeeds.join(' ')}`].join('\n'));
}

// The 32-bit big-endian words of the labelled stream: block i (from 1) is
// HMAC-SHA256(server_seed, [i]_32 || label || 0x00 || context).
class Stream {
  constructor(key, label, ctx) {
    const head = encoder.encode(label);
    this.tail = new Uint8Array(head.length + 1 + ctx.length);
    this.tail.set(head, 0);
    this.tail.set(ctx, head.length + 1);
    this.key = key;
    this.counter = 0;
    this.words = [];
  }

  async next() {
    if (!this.words.length) {
      this.counter += 1;
      const message = new Uint8Array(4 + this.tail.length);
      new DataView(message.buffer).setUint32(0, this.counter);
      message.set(this.tail, 4);
      const block = new DataView(await crypto.subtle.sign('HMAC', this.key, message));
      for (let k = 0; k < block.byteLength; k += 4) this.words.push(block.getUint32(k));
    }
    return this.words.shift();
  }
}

async function uniform(stream, n) {
  const limit = 2 ** 32 - (2 ** 32 % n);
  for (;;) {
    const word = await stream.next();
    if (word < limit) return word % n;
  }
}

async function shuffle(cards, seeds, label) {
  const stream = new Stream(seeds.key, label, seeds.context);
  for (let i = cards.length - 1; i > 0; i -= 1) {
    const j = await uniform(stream, i + 1);
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  return cards;
}

const sortedDeck = () => Array.from({ length: DECK_SIZE }, (_, i) => i);

// The seeds a history's _fairness table reveals, checked against its commitment.
async function seedsOf(fields) {
  if (fields.scheme !== SCHEME) throw new VerifyError(`${FIELD}.scheme is '${String(fields.scheme).slice(0, 40)}'; this verifier knows '${SCHEME}'`);
  const server = fields.server_seed;
  if (typeof server !== 'string' || !/^[0-9a-f]{64}$/.test(server)) throw new VerifyError(`${FIELD}.server_seed must be 64 lowercase hex digits`);
  if (typeof fields.room !== 'string') throw new VerifyError(`${FIELD}.room must be the room id, a string`);
  if (!Number.isInteger(fields.hand_no)) throw new VerifyError(`${FIELD}.hand_no must be the hand number, an integer`);
  const clients = fields.client_seeds;
  if (!Array.isArray(clients) || !clients.length) throw new VerifyError(`${FIELD}.client_seeds must list every player's seed (p1 first)`);
  const seeds = clients.map((seed) => {
    const text = typeof seed === 'string' ? seed.trim().toLowerCase() : null;
    if (text === null) throw new VerifyError(`${FIELD}.client_seeds: a client seed is a string of hex digits`);
    if (!/^[0-9a-f]{1,64}$/.test(text)) throw new VerifyError(`${FIELD}.client_seeds: a client seed is 1 to 64 hex digits (0-9, a-f)`);
    return text;
  });
  const serverBytes = hexBytes(server);
  const commitment = await sha256Hex(serverBytes);
  if (commitment !== fields.commitment) {
    throw new VerifyError(`the server seed does not match the commitment: SHA-256 of the revealed seed is ${commitment}, the commitment published before the hand was ${String(fields.commitment).slice(0, 64)}`);
  }
  const key = await crypto.subtle.importKey('raw', serverBytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return { key, context: context(fields.room, fields.hand_no, seeds), commitment };
}

function historyCards(text, where) {
  const cards = [];
  for (let k = 0; k < text.length; k += 2) {
    const token = text.slice(k, k + 2);
    cards.push(token === '??' ? null : parseCard(token, where));
  }
  return cards;
}

function compare(where, what, shown, dealt) {
  let checked = 0;
  shown.forEach((card, k) => {
    if (card === null) return;
    const [expected, position] = dealt[k];
    if (card !== expected) {
      throw new VerifyError(`${where}: ${what} ${k + 1} is ${cardName(card)}, but the committed deck has ${cardName(expected)} there (${position})`);
    }
    checked += 1;
  });
  return checked;
}

// Check every card `history` (the history as JSON) shows. Resolves to
// {ok: true, cards, commitment} or {ok: false, reason} (the first mismatch).
export async function verifyHistory(history) {
  try {
    const cards = await check(history);
    return { ok: true, cards, commitment: history[FIELD].commitment };
  } catch (error) {
    if (error instanceof VerifyError) return { ok: false, reason: error.message };
    throw error;
  }
}

async function check(history) {
  const fields = history && history[FIELD];
  if (!fields || typeof fields !== 'object') throw new VerifyError(`this history has no ${FIELD} table: the deal was not verifiable`);
  const seeds = await seedsOf(fields);
  const burns = 'burns' in fields ? fields.burns : false;
  const setAside = 'set_aside' in fields ? fields.set_aside : 0;
  if (typeof burns !== 'boolean' || !Number.isInteger(setAside) || setAside < 0 || setAside > DECK_SIZE) {
    throw new VerifyError(`${FIELD}.burns must be true or false and ${FIELD}.set_aside a number of cards`);
  }
  const actions = history.actions;
  if (!Array.isArray(actions) || !actions.every((a) => typeof a === 'string')) throw new VerifyError("the history's actions must be a list of strings");
  const deck = await shuffle(sortedDeck(), seeds, 'deck');
  let top = 0;
  let aside = null;
  let asideStart = 0;
  let asideDealt = 0;
  let distribution = 0;
  let pool = null;
  let poolDealt = 0;
  let recycled = []; // hands folded since the last redraw distribution (back in the pool)
  const take = (count) => {
    if (top + count > DECK_SIZE) throw new VerifyError(`the history deals more than the ${DECK_SIZE} cards of the deck`);
    const dealt = [];
    for (let k = top; k < top + count; k += 1) dealt.push([deck[k], `deck position ${k + 1}`]);
    top += count;
    return dealt;
  };
  // One board deal (`d db CARDS`), checked against the set-aside cards or the deck.
  const boardDeal = (text, where) => {
    const shown = historyCards(text, where);
    if (setAside && aside === null) {
      asideStart = top;
      aside = take(setAside).map(([c]) => c);
    }
    if (burns) take(1);
    let dealt;
    if (aside !== null) {
      if (asideDealt + shown.length > aside.length) throw new VerifyError(`${where}: more board cards than the ${aside.length} set aside`);
      dealt = [];
      for (let k = asideDealt; k < asideDealt + shown.length; k += 1) dealt.push([aside[k], `set-aside board card ${k + 1}, deck position ${asideStart + k + 1}`]);
      asideDealt += shown.length;
    } else {
      dealt = take(shown.length);
    }
    return compare(where, 'board card', shown, dealt);
  };
  const held = new Map();
  const folded = new Set();
  let redrawn = null;
  let checked = 0;
  for (let number = 1; number <= actions.length; number += 1) {
    const text = actions[number - 1];
    const hash = text.indexOf('#');
    const body = hash < 0 ? text : text.slice(0, hash);
    const note = hash < 0 ? '' : text.slice(hash + 1).trim();
    const words = body.split(/\s+/).filter(Boolean);
    const where = `action ${number} ('${body.trim()}')`;
    const isRedraw = words[0] === 'd' && words[1] === 'dh' && note === 'redraw';
    if (!isRedraw) redrawn = null;
    if (words.length === 4 && words[0] === 'd' && words[1] === 'dh') {
      const player = words[2];
      const shown = historyCards(words[3], where);
      let dealt;
      if (isRedraw) {
        if (redrawn === null || redrawn.has(player)) {
          const live = new Set();
          for (const [p, cards] of held) if (!folded.has(p)) cards.forEach((c) => live.add(c));
          const setAsideCards = new Set(aside || []);
          distribution += 1;
          pool = await shuffle(sortedDeck().filter((c) => !live.has(c) && !setAsideCards.has(c)), seeds, `redraw ${distribution}`);
          poolDealt = 0;
          recycled = [];
          redrawn = new Set();
        }
        redrawn.add(player);
        if (poolDealt + shown.length > pool.length) throw new VerifyError(`${where}: the redraw pool has only ${pool.length - poolDealt} cards left`);
        dealt = [];
        for (let k = poolDealt; k < poolDealt + shown.length; k += 1) dealt.push([pool[k], `redraw ${distribution}, pool position ${k + 1}`]);
        poolDealt += shown.length;
      } else {
        dealt = take(shown.length);
      }
      checked += compare(where, `${player}'s card`, shown, dealt);
      held.set(player, [...(held.get(player) || []), ...dealt.map(([c]) => c)]);
    } else if (words.length === 3 && words[0] === 'd' && words[1] === 'db') {
      checked += boardDeal(words[2], where);
    } else if (words.length === 2 && words[1] === 'f') {
      folded.add(words[0]);
      recycled.push(...(held.get(words[0]) || []));
    } else if (words.length === 3 && words[1] === 'sm') {
      const player = words[0];
      for (const card of historyCards(words[2], where)) {
        if (card === null) continue;
        if (!(held.get(player) || []).includes(card)) throw new VerifyError(`${where}: ${player} shows ${cardName(card)}, a card the committed deck never dealt them`);
        checked += 1;
      }
    }
  }
  // The runs after the first (`_runs.runs`): dealt on from the same deck, unshuffled; in the
  // redraw games each run's board cards come off the pool first, and each street's redraws
  // are a distribution of their own (docs/history.md).
  const table = history._runs || {};
  const runs = table.runs || [];
  if (!Array.isArray(runs) || !runs.every((r) => r && Array.isArray(r.actions) && r.actions.every((a) => typeof a === 'string'))) {
    throw new VerifyError("the history's _runs.runs must be a list of tables of actions");
  }
  const gone = new Set(aside || []); // every board card of every run so far
  const dealtInRuns = new Set();
  for (let r = 0; r < runs.length; r += 1) {
    const number = r + 2;
    const lines = runs[r].actions.map((text) => {
      const hash = text.indexOf('#');
      return { words: (hash < 0 ? text : text.slice(0, hash)).split(/\s+/).filter(Boolean), note: hash < 0 ? '' : text.slice(hash + 1).trim() };
    });
    if (setAside) {
      const boardCards = lines.filter((l) => l.words[1] === 'db').reduce((n, l) => n + l.words[2].length / 2, 0);
      const left = [...(pool !== null ? pool.slice(poolDealt) : deck.slice(top)), ...recycled];
      if (boardCards > left.length) throw new VerifyError(`run ${number}: the pool has ${left.length} cards, the run's boards ${boardCards}`);
      aside = left.slice(0, boardCards);
      asideDealt = 0;
      pool = left.slice(boardCards);
      poolDealt = 0;
      recycled = [];
      aside.forEach((c) => gone.add(c));
    }
    let inRun = null;
    for (let k = 0; k < lines.length; k += 1) {
      const { words, note } = lines[k];
      const where = `run ${number}, action ${k + 1} ('${words.join(' ')}')`;
      if (words.length === 3 && words[0] === 'd' && words[1] === 'db') {
        inRun = null;
        if (setAside) {
          const shown = historyCards(words[2], where);
          if (asideDealt + shown.length > aside.length) throw new VerifyError(`${where}: more board cards than the run takes`);
          const dealt = [];
          for (let i = asideDealt; i < asideDealt + shown.length; i += 1) dealt.push([aside[i], `run ${number}'s board card ${i + 1}`]);
          asideDealt += shown.length;
          checked += compare(where, 'board card', shown, dealt);
        } else {
          checked += boardDeal(words[2], where);
        }
      } else if (words.length === 4 && words[0] === 'd' && words[1] === 'dh' && note === 'redraw') {
        const player = words[2];
        const shown = historyCards(words[3], where);
        if (inRun === null || inRun.has(player)) {
          const live = new Set([...gone, ...dealtInRuns]);
          for (const [p, cards] of held) if (!folded.has(p)) cards.forEach((c) => live.add(c));
          distribution += 1;
          pool = await shuffle(sortedDeck().filter((c) => !live.has(c)), seeds, `redraw ${distribution}`);
          poolDealt = 0;
          inRun = new Set();
        }
        inRun.add(player);
        if (poolDealt + shown.length > pool.length) throw new VerifyError(`${where}: the redraw pool has only ${pool.length - poolDealt} cards left`);
        const dealt = [];
        for (let i = poolDealt; i < poolDealt + shown.length; i += 1) dealt.push([pool[i], `redraw ${distribution}, pool position ${i + 1}`]);
        poolDealt += shown.length;
        checked += compare(where, `${player}'s card`, shown, dealt);
        dealt.forEach(([c]) => dealtInRuns.add(c));
      } else {
        throw new VerifyError(`${where}: a run deals board cards (d db) and redraws only`);
      }
    }
  }
  // The board cards a rabbit hunt showed (never dealt) come next from the same deck.
  const rabbit = history._rabbit || [];
  if (!Array.isArray(rabbit) || !rabbit.every((a) => typeof a === 'string')) throw new VerifyError("the history's _rabbit must be a list of board deals");
  rabbit.forEach((text, i) => {
    const body = text.split('#')[0];
    const words = body.split(/\s+/).filter(Boolean);
    const where = `rabbit hunt ${i + 1} ('${body.trim()}')`;
    if (words.length !== 3 || words[0] !== 'd' || words[1] !== 'db') throw new VerifyError(`${where}: a rabbit hunt deals board cards only (d db CARDS)`);
    checked += boardDeal(words[2], where);
  });
  return checked;
}
