// The table's words: what a player would say of each thing that happens in a hand ("Bob calls
// 12", "Ann raises to 48"), in one place for the action log, the replayer and announcements.
// Nothing here computes a rule: every number comes from the server's events and views.

// What the game posts, for the top bar: "1/2" (blinds; "1/2 · straddle 4" when a player
// straddled the hand in play: `straddled`), "Ante 1 · bet 2" (ante games),
// "Ante 1 · bring-in 1 · 2/4" (stud), from the table's `posts`.
export function postsText(posts, straddled = false) {
  if (!posts) return '';
  if (posts.forced_bets === 'blinds') {
    const blinds = `${posts.small_blind}/${posts.big_blind}`;
    return straddled && posts.straddle ? `${blinds} · straddle ${posts.straddle}` : blinds;
  }
  if (posts.forced_bets === 'antes') return `Ante ${posts.ante} · bet ${posts.min_bet}`;
  return `Ante ${posts.ante} · bring-in ${posts.bring_in} · ${posts.small_bet}/${posts.big_bet}`;
}

const TIMES = { 1: 'once', 2: 'twice', 3: 'three times' };
const POT_NAMES = (index) => (index === 0 ? 'the main pot' : `side pot ${index}`);
const STREET_NAMES = {
  preflop: 'Preflop', flop: 'Flop', turn: 'Turn', river: 'River', bomb: 'Bomb', third: 'Third street',
  fourth: 'Fourth street', fifth: 'Fifth street', sixth: 'Sixth street', seventh: 'Seventh street',
};
const plainCards = (cards) => cards.join(' ');

// "Ann", "Ann and Bob", "Ann, Bob and Cy".
export function joinNames(names) {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

// The sentences of one hand, event by event. `names[seat]` names each seat of its events; `stacks`
// (the stacks at the deal, by the same seats, optional) lets a bet or call that empties a stack say
// "all-in"; `cards` formats a list of card codes (default "As Kd"). A betting round's bets are
// followed here only to choose the words ("bets" or "raises to", "checks" or "calls"); every
// number is the event's. say(event) returns a sentence, or null for what a player would not
// mention (a burned card, the pool's size).
export class HandStory {
  constructor({ names = [], stacks = null, cards = plainCards } = {}) {
    this.names = names;
    this.stacks = stacks ? { ...stacks } : null;
    this.cards = cards;
    this.bets = {};
    this.top = 0;
    this.bringIn = 0;
    this.streets = 0;
    this.runs = 1;
  }

  name(seat) { return this.names[seat] || `Seat ${seat + 1}`; }

  pay(seat, amount) {
    this.bets[seat] = (this.bets[seat] || 0) + amount;
    if (this.stacks && this.stacks[seat] != null) this.stacks[seat] -= amount;
    return this.stacks && this.stacks[seat] === 0 ? ' (all-in)' : '';
  }

  say(e) {
    const who = e.seat != null ? this.name(e.seat) : '';
    switch (e.type) {
      case 'AntePosted': this.pay(e.seat, e.amount); this.bets[e.seat] = 0; return `${who} posts the ante of ${e.amount}`;
      case 'BlindPosted': {
        const allIn = this.pay(e.seat, e.amount);
        this.top = Math.max(this.top, e.amount);
        if (e.blind === 'straddle') return `${who} straddles ${e.amount}${allIn}`;
        return `${who} posts the ${e.blind} blind of ${e.amount}${allIn}`;
      }
      case 'StreetStarted':
        this.streets += 1;
        if (this.streets > 1) { this.bets = {}; this.top = 0; this.bringIn = 0; }
        return `${STREET_NAMES[e.street] || e.street}`;
      case 'BoardDealt': return `Board ${e.board}: ${this.cards(e.cards)}`;
      case 'Redrawn': return `${who} draws ${e.cards.length} extra card${e.cards.length === 1 ? '' : 's'}`;
      case 'HoleDealt': {
        const up = e.cards.filter((c, i) => c && e.up[i]);
        const down = e.cards.filter((c, i) => !e.up[i]);
        const seen = down.filter((c) => c);
        const parts = [];
        if (down.length) parts.push(seen.length === down.length ? this.cards(seen) : `${down.length} card${down.length === 1 ? '' : 's'}`);
        if (up.length) parts.push(`${this.cards(up)} face up`);
        return `${who} is dealt ${parts.join(' and ')}`;
      }
      case 'BringInPosted': {
        const allIn = this.pay(e.seat, e.amount);
        this.top = Math.max(this.top, e.amount);
        this.bringIn = e.amount;
        return `${who} brings in for ${e.amount}${allIn}`;
      }
      case 'Folded': return `${who} folds`;
      case 'Checked': return `${who} checks`;
      case 'Called': {
        const allIn = this.pay(e.seat, e.amount);
        return `${who} calls ${this.bets[e.seat]}${allIn}`;
      }
      case 'RaisedTo': {
        const verb = this.top === 0 ? 'bets' : this.bringIn && this.top === this.bringIn ? 'completes to' : 'raises to';
        const allIn = this.pay(e.seat, e.amount - (this.bets[e.seat] || 0));
        this.top = Math.max(this.top, e.amount);
        return `${who} ${verb} ${e.amount}${allIn}`;
      }
      case 'UncalledReturned': return `${e.amount} uncalled ${e.amount === 1 ? 'chip goes' : 'chips go'} back to ${who}`;
      case 'HandShown': return `${who} shows ${this.cards(e.cards)}`;
      case 'HandMucked': return `${who} mucks`;
      case 'PotAwarded': {
        const pot = `${this.runs > 1 ? `run ${e.run}'s share of ` : ''}${POT_NAMES(e.index)}`;
        const shares = e.shares.filter(([, chips]) => chips > 0);
        if (shares.length === 1) {
          return `${this.name(shares[0][0])} wins ${pot} (${e.amount})${e.showdown ? '' : ' uncontested'}`;
        }
        const amounts = shares.map(([seat, chips]) => `${this.name(seat)} ${chips}`);
        return `${joinNames(shares.map(([seat]) => this.name(seat)))} split ${pot} (${e.amount}): ${amounts.join(', ')}`;
      }
      case 'AllocationStarted': return `${joinNames(e.seats.map((s) => this.name(s)))} allocate their cards`;
      case 'AllocationCommitted': return `${who} ${e.automatic ? 'runs out of time: the best allocation is made' : 'has allocated'}`;
      case 'AllocationsRevealed':
        return e.allocations.map(([seat, parts]) => `${this.name(seat)} allocates ${parts.map(([name, cards]) => `${name}: ${this.cards(cards)}`).join(', ')}`).join('; ');
      case 'RunsOffered': return `Everyone is all-in: ${joinNames(e.seats.map((s) => this.name(s)))} may run it up to ${TIMES[e.most]}`;
      case 'RunsUnavailable': return `No running it twice: ${e.reason}`;
      case 'RunsChosen': return e.automatic ? `${who} runs out of time: once` : `${who} wants to run it ${TIMES[e.runs]}`;
      case 'RunsAgreed': this.runs = e.runs; return e.runs > 1 ? `Running it ${TIMES[e.runs]}` : 'Running it once';
      case 'RunDealt': {
        const boards = e.boards.map(([board, cards]) => `board ${board}: ${this.cards(cards)}`);
        const redraws = e.cards.filter(([, cards]) => cards.length).map(([seat, cards]) => `${this.name(seat)} draws ${cards.length}`);
        return `Run ${e.run}: ${[...boards, ...redraws].join(', ')}`;
      }
      case 'HandEnded': return null;
      default: return null; // CardBurned, PoolChanged: nothing a player would say
    }
  }
}

// The category winners and points of each settled pot (a view's `results`), one sentence a pot:
// "The main pot: A to Ann, B to Bob, Hand tied by Ann and Bob; points Ann 3/2, Bob 3/2"; in a
// hand run more than once each run's share of a pot is scored on its own: "Run 2: The main pot: ...".
export function pointsSentences(results, names) {
  const name = (seat) => names[seat] || `Seat ${seat + 1}`;
  const runs = (results || []).some((pot) => pot.run > 1);
  return (results || []).filter((pot) => pot.categories && pot.categories.length > 1).map((pot) => {
    const categories = pot.categories.map(([category, winners]) => (!winners.length ? `${category} void`
      : winners.length === 1 ? `${category} to ${name(winners[0])}` : `${category} tied by ${joinNames(winners.map(name))}`));
    const said = potPointsSentence(pot.index, pot.points, names, categories);
    return runs ? `Run ${pot.run}: ${said}` : said;
  });
}

// One pot's points ([[seat, "3/2"], ...]), after its category winners when they are known.
export function potPointsSentence(index, points, names, categories = []) {
  const name = (seat) => names[seat] || `Seat ${seat + 1}`;
  const label = POT_NAMES(index);
  const said = points.map(([seat, value]) => `${name(seat)} ${value}`).join(', ');
  return `${label[0].toUpperCase()}${label.slice(1)}: ${categories.length ? `${categories.join(', ')}; ` : ''}points ${said}`;
}

// A card shown after the hand (the `shown_after` table event): "Ann shows As Kd after the hand".
export function shownAfterSentence(data, cards = plainCards) {
  return `${data.name} shows ${cards(data.cards)} after the hand`;
}

// A rabbit hunt (the `rabbit` table event): who asked, then each board's cards, not dealt.
export function rabbitSentences(data, cards = plainCards) {
  return [`${data.name} hunts the rabbit (cards not dealt)`,
    ...Object.entries(data.boards).map(([board, list]) => `Rabbit, board ${board}: ${cards(list)}`)];
}

// The all-in equity (the `equity` table event and last_hand.equity), street by street of the
// run-out: each pot's players with their chance of winning all of it and, in the points and
// hi-lo games, their expected share of it. "exact" or the stated margin (95%) of a sample.
export function equitySentences(data) {
  return data.streets.map((street) => {
    const how = street.exact ? 'exact' : `within ${street.margin}%`;
    const pots = street.pots.map((pot) => {
      const label = street.pots.length > 1 ? (pot.index ? `side pot ${pot.index}` : 'main pot') : 'pot';
      const said = pot.seats.map((s) => `${s.name} ${s.win_pct}%${data.shares ? ` (share ${s.share_pct}%)` : ''}`);
      return `${label}: ${said.join(', ')}`;
    });
    return `All-in equity on the ${street.street} (${how}), chance of winning the ${pots.join('; ')}`;
  });
}
