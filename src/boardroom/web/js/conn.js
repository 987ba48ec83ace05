// The real-time channel (docs/protocol.md): join a room, send commands, follow its events.
//
// The client never applies game rules to events. Every change reaches it as one `update`: the
// change's events as this viewer may see them and the viewer's view after them (built by the
// server), whole or as a patch of the view it holds (`base`: that view's version), so it draws
// from pushes alone. It asks for a snapshot only on joining, on a version gap (an update that
// does not follow the last version, or a patch of another version) and on reconnecting. Between the last
// view of a hand and the next hand it keeps that view and adds what the showdown events say
// (shown cards, boards run out, pots awarded), so the result stays on screen.
import { io } from 'socket.io-client';
import { loadRoom, saveRoom } from './store.js';
import { offerSeed } from './seed.js';
import { seatInHand } from './seats.js';
import { HandStory, equitySentences, pointsSentences, rabbitSentences, shownAfterSentence } from './words.js';

const CHAT_KEPT = 100;
// Test mode: the browser tests install `window.boardroomWireCheck`, which validates every message
// this client receives against the server's JSON Schema (/api/protocol.schema.json) and records
// what fails; without it (in use) this does nothing.
const received = (event, message) => {
  if (typeof window.boardroomWireCheck === 'function') window.boardroomWireCheck(event, message);
};
const LOG_KEPT = 400; // lines of the action log kept, over the last hands
let counter = 0;
const newId = () => `${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

// A patch (docs/protocol.md, "Patches"): each change is [path, value] (set) or [path] (remove a
// key), its path keys and indices from the view's top. Copy on write: the view held and the
// parts the patch does not touch are left as they are, so `before` and `after` differ where it
// changed and are shared where not.
export function applyPatch(view, patch) {
  const out = { ...view };
  const made = new Set([out]);
  for (const [path, ...value] of patch) {
    let node = out;
    for (const key of path.slice(0, -1)) {
      let child = node[key];
      if (!made.has(child)) {
        child = Array.isArray(child) ? [...child] : { ...child };
        made.add(child);
        node[key] = child;
      }
      node = child;
    }
    const last = path[path.length - 1];
    if (value.length) node[last] = value[0];
    else delete node[last];
  }
  return out;
}

export class RoomConnection {
  constructor(room, { role = 'player', onChange }) {
    this.room = room;
    this.role = role;
    this.onChange = onChange;
    this.snapshot = null;
    this.you = null;
    this.connected = false;
    this.error = null;
    this.notices = [];
    this.chat = []; // [{version, seat, name, text}], oldest first, the last CHAT_KEPT
    this.sentChat = new Set(); // versions of the chat lines this connection sent
    this.lastHand = null; // {hand, version, table}
    this.handEvents = []; // hand events of the current hand: [{version, event}]
    this.result = null; // the finished hand: {hand_no, winnings, stacks}
    this.log = []; // the action log: [{hand_no, text, head}], oldest first
    this.story = null; // the words of the hand in play (words.js)
    this.logPoints = null; // the hand whose points are in the log
    this.clockOffset = 0; // server time minus local time, seconds
    this.closed = false;
    this.listeners = []; // (events, before, after) after each update: the announcer (announce.js)
    this._snapTimer = null;
    this._snapBusy = false;
    this._snapAgain = false;
    this.socket = io({ transports: ['websocket'], reconnectionDelayMax: 4000 });
    this.socket.on('connect', () => { this.connected = true; this.join(); });
    this.socket.on('disconnect', () => { this.connected = false; this.changed(); });
    this.pending = null; // an update that came before the join's snapshot
    this.socket.on('update', (payload) => { received('update', payload); this.onUpdate(payload); });
    this.socket.on('host', (payload) => {
      received('host', payload);
      if (payload && payload.host_secret) saveRoom(this.room, { host_secret: payload.host_secret });
      if (this.you) this.you = { ...this.you, host: true };
      this.notice('You are the host now.');
    });
    this.socket.on('error', (payload) => {
      received('error', payload);
      this.notice(payload && payload.error ? payload.error : 'error');
    });
  }

  close() {
    this.closed = true;
    clearTimeout(this._snapTimer);
    this.socket.close();
  }

  changed() {
    if (!this.closed) this.onChange(this);
  }

  notice(text) {
    this.notices = [...this.notices.slice(-4), { text, at: Date.now() }];
    this.changed();
  }

  serverNow() {
    return Date.now() / 1000 + this.clockOffset;
  }

  command(type, args = {}) {
    const message = { id: newId(), type, ...args };
    return new Promise((resolve) => {
      this.socket.timeout(10000).emit('command', message, (err, answer) => {
        if (err) resolve({ ok: false, code: 'no_answer', error: 'no answer from the server (reconnecting?)' });
        else {
          received('answer', answer);
          resolve(answer || { ok: false, code: 'no_answer', error: 'empty answer' });
        }
      });
    });
  }

  async send(type, args = {}) {
    const answer = await this.command(type, args);
    if (!answer.ok) this.notice(answer.error || `${type} failed`);
    return answer;
  }

  async join() {
    const saved = loadRoom(this.room);
    const args = { room: this.room, role: this.role };
    if (saved.token && this.role === 'player') args.token = saved.token;
    if (saved.host_secret) args.host_secret = saved.host_secret;
    // A spectator's chat lines carry the name this browser last sat down with, if any.
    const name = (localStorage.getItem('boardroom:name') || '').trim();
    if (this.role === 'spectator' && name && name.length <= 24) args.name = name;
    let answer = await this.command('join', args);
    if (!answer.ok && answer.code === 'bad_seat_token') {
      saveRoom(this.room, { token: null, seat: null });
      delete args.token;
      answer = await this.command('join', args);
    }
    if (!answer.ok && args.name && answer.code === 'bad_name') {
      delete args.name;
      answer = await this.command('join', args);
    }
    if (!answer.ok && answer.code === 'bad_host_secret') {
      saveRoom(this.room, { host_secret: null });
      delete args.host_secret;
      answer = await this.command('join', args);
    }
    if (!answer.ok) {
      this.error = answer.error;
      this.changed();
      return;
    }
    this.error = null;
    this.you = answer.you;
    this.applySnapshot(answer.snapshot);
    const early = this.pending;
    this.pending = null;
    if (early) this.onUpdate(early);
  }

  async sit(seat, name) {
    const answer = await this.send('sit', { seat, name });
    if (answer.ok) {
      saveRoom(this.room, { token: answer.token, seat: answer.seat, name });
      this.you = { ...(this.you || {}), seat: answer.seat };
      this.changed();
    }
    return answer;
  }

  async leave() {
    const answer = await this.send('leave');
    if (answer.ok) saveRoom(this.room, { token: null, seat: null });
    return answer;
  }

  // The Allocator games' hint (the engine's best allocation of your cards), asked for when the
  // Suggest button is pressed: null when there is nothing to allocate.
  async suggest() {
    const answer = await this.send('suggest');
    this.suggestion = answer.ok ? answer.suggestion : null; // the last one, for the console
    return this.suggestion;
  }

  // Send a chat line; the answer (ok, or the server's error: too long, too many messages) is
  // the caller's to show. The answer's version is the chat event's: it marks the line as ours.
  async sendChat(text) {
    const answer = await this.command('chat', { text });
    if (answer.ok && answer.version != null) {
      this.sentChat.add(answer.version);
      this.changed();
    }
    return answer;
  }

  // Chat lines by version, so events and snapshots (after a gap or a reconnect) merge cleanly.
  addChat(lines) {
    const byVersion = new Map(this.chat.map((line) => [line.version, line]));
    for (const line of lines) if (line && line.version != null) byVersion.set(line.version, line);
    this.chat = [...byVersion.values()].sort((a, b) => a.version - b.version).slice(-CHAT_KEPT);
  }

  // An update: follow its events, then draw its view. One that does not follow the last version
  // (a gap) asks for a snapshot; one from before the join's snapshot waits for it.
  onUpdate(payload) {
    if (!payload || payload.room !== this.room) return;
    if (!this.snapshot) { this.pending = payload; return; }
    const last = this.snapshot.version;
    if (payload.version <= last) return;
    const events = payload.events || [];
    if (!events.length || events[0].version !== last + 1) {
      this.requestSnapshot(0);
      return;
    }
    if (payload.patch && payload.base !== last) {
      this.requestSnapshot(0);
      return;
    }
    const before = this.snapshot;
    for (const event of events) this.onEvent(event);
    const view = payload.patch ? applyPatch(this.snapshot, payload.patch) : payload.view;
    this.snapshot = { ...this.snapshot, ...view, version: payload.version };
    this.logResults();
    this.keepHand();
    offerSeed(this);
    for (const listener of this.listeners) listener(events, before, this.snapshot);
    this.changed();
  }

  onEvent(payload) {
    if (typeof payload.at === 'number') this.clockOffset = payload.at - Date.now() / 1000;
    const { kind, data } = payload;
    if (kind === 'hand') {
      this.handEvents.push({ version: payload.version, event: payload.event });
      this.tell(payload.hand_no, payload.event);
    } else if (kind === 'hand_started') {
      this.startStory(data);
      this.result = null;
      this.lastHand = null;
      this.handEvents = [];
    } else if (kind === 'hand_ended') {
      this.result = { hand_no: data.hand_no, winnings: data.winnings || {}, stacks: data.stacks || {} };
    } else if (kind === 'chat') {
      this.addChat([{ version: payload.version, ...data }]);
    } else if (kind === 'game_changed') {
      this.notice(`The game changes to ${data.name}`);
    } else if (kind === 'game_picked') {
      this.notice(`${data.by_button ? 'The button picked' : 'No pick in time:'} ${data.name}`);
    } else if (kind === 'host_changed') {
      if (this.you && this.you.seat !== data.seat) this.you = { ...this.you, host: false };
      this.notice(`${data.name} is the host now`);
    } else if (kind === 'left') {
      if (this.you && this.you.seat === data.seat) {
        saveRoom(this.room, { token: null, seat: null });
        this.you = { ...this.you, seat: null };
      }
      this.notice(`${data.name} ${data.kicked ? 'was removed' : 'left'}`);
    } else if (kind === 'shown_after') {
      this.log = [...this.log, { hand_no: data.hand_no, text: shownAfterSentence(data) }].slice(-LOG_KEPT);
      this.notice(shownAfterSentence(data));
    } else if (kind === 'rabbit') {
      const lines = rabbitSentences(data);
      this.log = [...this.log, ...lines.map((text) => ({ hand_no: data.hand_no, text }))].slice(-LOG_KEPT);
      this.notice(lines[0]);
    } else if (kind === 'equity') {
      const lines = equitySentences(data);
      this.log = [...this.log, ...lines.map((text) => ({ hand_no: data.hand_no, text }))].slice(-LOG_KEPT);
    } else if (kind === 'choosing_runs') {
      this.runsDeadline = data.deadline;
    } else if (kind === 'timed_out') {
      this.notice(`${data.name || `Seat ${data.seat + 1}`} ran out of time`);
    }
  }

  // -- the action log: each hand's events in a player's words (words.js) --------------------

  startStory({ hand_no: handNo, seats, stacks, name }) {
    const table = this.snapshot && this.snapshot.table;
    const names = {}; // by seat, as the hand's events name them
    const chips = {};
    seats.forEach((seat, k) => {
      const s = table && table.seats[seat];
      names[seat] = s && s.name ? s.name : `Seat ${seat + 1}`;
      if (stacks) chips[seat] = stacks[k];
    });
    this.story = { handNo, words: new HandStory({ names, stacks: stacks ? chips : null }) };
    this.log = [...this.log.filter((line) => line.hand_no !== handNo),
      { hand_no: handNo, head: true, text: `Hand #${handNo}${name ? ` · ${name}` : ''}` }].slice(-LOG_KEPT);
  }

  tell(handNo, event) {
    if (!event || !this.story || this.story.handNo !== handNo) return;
    const text = this.story.words.say(event);
    if (text) this.log = [...this.log, { hand_no: handNo, text }].slice(-LOG_KEPT);
  }

  // The hand's category winners and points, once the view has them (points games, hi-lo).
  logResults() {
    const snap = this.snapshot;
    const ended = snap.hand && snap.hand.is_over ? { view: snap.hand, handNo: snap.table.hand_no }
      : snap.last_hand ? { view: snap.last_hand.view, handNo: snap.last_hand.hand_no } : null;
    if (!ended || this.logPoints === ended.handNo || !this.story || this.story.handNo !== ended.handNo) return;
    const results = ended.view.results || [];
    if (!results.length) return;
    this.logPoints = ended.handNo;
    const lines = pointsSentences(results, this.story.words.names).map((text) => ({ hand_no: ended.handNo, text }));
    this.log = [...this.log, ...lines].slice(-LOG_KEPT);
  }

  // A snapshot mid-hand: the log of that hand is told again from its events so far.
  storyFromSnapshot(snapshot) {
    const told = snapshot.hand_log;
    if (!told) return;
    this.startStory(told);
    for (const event of told.events || []) this.tell(told.hand_no, event);
  }

  requestSnapshot(delay = 0) {
    clearTimeout(this._snapTimer);
    this._snapTimer = setTimeout(() => this._snapshot(), delay);
  }

  async _snapshot() {
    if (this._snapBusy) { this._snapAgain = true; return; }
    this._snapBusy = true;
    const answer = await this.command('snapshot');
    this._snapBusy = false;
    if (answer.ok) this.applySnapshot(answer.snapshot);
    if (this._snapAgain) { this._snapAgain = false; this.requestSnapshot(0); }
  }

  applySnapshot(snapshot) {
    if (!snapshot) return;
    if (this.snapshot && snapshot.version < this.snapshot.version) return;
    this.snapshot = snapshot;
    this.you = snapshot.you;
    this.storyFromSnapshot(snapshot);
    if (snapshot.chat) this.addChat(snapshot.chat.map((c) => ({ version: c.version, ...(c.data || c) })));
    this.keepHand();
    offerSeed(this);
    this.changed();
  }

  // The last live view of a hand, kept to draw its result once the hand is over.
  keepHand() {
    const snap = this.snapshot;
    if (snap.hand) {
      this.lastHand = { hand: snap.hand, version: snap.version, table: snap.table };
      this.handEvents = this.handEvents.filter((e) => e.version > snap.version);
    }
  }

  // The hand to draw: the live view, or the last view plus its showdown events.
  displayHand() {
    const snap = this.snapshot;
    if (snap && snap.hand) return { hand: snap.hand, live: true };
    if (snap && snap.last_hand) {
      const last = snap.last_hand;
      const shownAfter = last.shown_after || {};
      let hand = last.view;
      if (Object.keys(shownAfter).length) { // cards shown after the hand join that seat's shown cards
        hand = structuredClone(last.view);
        for (const [key, cards] of Object.entries(shownAfter)) {
          const seat = seatInHand(hand, Number(key));
          if (!seat) continue;
          const known = seat.cards.filter((c) => c && !cards.includes(c));
          seat.cards = [...cards, ...known, ...seat.cards.filter((c) => !c).slice(cards.length)];
        }
      }
      const you = this.you && this.you.seat != null && seatInHand(hand, this.you.seat) ? this.you.seat : null;
      return { hand, live: false, handNo: last.hand_no, awards: [], extra: [],
        canShow: !!last.can_show, canHunt: !!last.can_hunt, rabbit: last.rabbit || null, equity: last.equity || null, shownAfter: you != null ? shownAfter[String(you)] || [] : [] };
    }
    if (!this.lastHand) return null;
    const hand = structuredClone(this.lastHand.hand);
    const awards = [];
    const extra = [];
    for (const { version, event } of this.handEvents) {
      if (version <= this.lastHand.version || !event) continue;
      if (event.type === 'BoardDealt') {
        hand.boards[event.board] = [...(hand.boards[event.board] || []), ...event.cards];
      } else if (event.type === 'HandShown') {
        const seat = seatInHand(hand, event.seat);
        if (seat) { seat.cards = event.cards; seat.shown = true; }
      } else if (event.type === 'HandMucked') {
        const seat = seatInHand(hand, event.seat);
        if (seat) seat.shown = false;
      } else if (event.type === 'PotAwarded') {
        awards.push(event);
      } else if (event.type === 'HoleDealt') {
        const seat = seatInHand(hand, event.seat);
        if (seat && event.cards.some((c) => c)) seat.cards = [...seat.cards, ...event.cards];
      } else if (event.type === 'HandEnded') {
        hand.is_over = true;
        for (const [at, stack] of event.stacks) {
          const seat = seatInHand(hand, at);
          if (seat) { seat.stack = stack; seat.bet = 0; }
        }
      }
    }
    hand.actor = null;
    hand.legal = null;
    if (awards.length) hand.pots = [];
    return { hand, live: false, awards, extra };
  }
}
