// The rules page (`/?rules=ID`): every game as the registry describes it (/api/games: boards,
// streets with their reveals and redraw caps, categories and how each is made, max players,
// forced bets and betting), and a worked example hand (/api/games/ID/example: the engine
// played and scored it) drawn with the table's own cards and boards.
import { html } from './html.js';
import { useEffect, useState } from 'preact/hooks';
import { getVariantExample, getVariants, variantById } from './api.js';
import { navigate } from './nav.js';
import { Card } from './cards.js';
import { Boards } from './boards.js';
import { cardsSpoken, pointsSpoken, streetName } from './announce.js';

export const rulesUrl = (id) => `/?rules=${encodeURIComponent(id || 'index')}`;

const FORCED = { blinds: 'Blinds: the small and big blind post before the deal.', antes: 'Antes: everyone antes; there are no blinds and no preflop round, and the big blind is the minimum bet.' };
const BETTING = { 'pot-limit': 'pot limit', 'no-limit': 'no limit', 'fixed-limit': 'fixed limit' };

function streetRow(street, variant) {
  const reveals = Object.entries(street.reveals || {});
  const dealt = [];
  if (street.hole_down) dealt.push(`${street.hole_down} down`);
  if (street.hole_up) dealt.push(`${street.hole_up} up`);
  const boards = variant.boards.length;
  return html`<tr>
    <th scope="row">${streetName(street.name)}</th>
    <td>${reveals.length ? reveals.map(([b, n]) => (boards > 1 ? `${b}: ${n}` : `${n}`)).join(', ') : '—'}</td>
    ${variant.boards.length ? null : html`<td>${dealt.join(', ') || '—'}</td>`}
    <td>${street.redraw_cap != null ? `up to ${street.redraw_cap} in all` : '—'}</td>
    <td>${street.betting === false ? 'no' : 'yes'}</td>
  </tr>`;
}

function Example({ id, variant }) {
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    setData(null);
    setError(null);
    getVariantExample(id).then(setData).catch((e) => setError(e.message));
  }, [id]);
  if (error) return html`<p class="error" role="alert">The example could not be loaded: ${error}</p>`;
  if (!data) return html`<p class="muted">Dealing the example…</p>`;
  const view = data.view;
  const name = (i) => data.players[i] || `Player ${i + 1}`;
  const shown = Object.fromEntries((view.showdown || []).map((s) => [s.seat, s]));
  return html`<section class="rules-example" aria-labelledby="example-title">
    <h2 id="example-title">A worked example</h2>
    <p>${data.players.join(', ')} check (or call the forced bets) all the way; every hand is shown at the end.</p>
    ${variant.boards.length ? html`<div class="felt example-felt"><div class="felt-inner"><div class="centre">
      <${Boards} hand=${view} variant=${variant} />
    </div></div></div>` : null}
    <ul class="example-hands">
      ${view.seats.map((seat, i) => {
        const s = shown[i];
        return html`<li class="example-hand" data-player=${name(i)}>
          <strong>${name(i)}</strong>
          <div class="example-cards" role="group" aria-label=${`${name(i)}'s cards: ${cardsSpoken(s ? s.cards : seat.cards)}`}>
            ${(s ? s.cards : seat.cards).map((c, k) => html`<${Card} key=${k} card=${c} small=${true} />`)}</div>
          ${s ? html`<ul class="example-made">${s.categories.map(([cat, desc]) => html`<li><b>${cat}</b> ${desc}</li>`)}
            ${s.allocation && s.allocation.length ? html`<li class="muted">allocated: ${s.allocation.map(([slot, cards]) => `${slot} ${cards.join(' ')}`).join(' · ')}</li>` : null}</ul>` : null}
        </li>`;
      })}
    </ul>
    ${(view.results || []).map((r) => html`<div class="example-result" data-pot=${r.index}>
      <p><b>${r.index ? `Side pot ${r.index}` : 'The pot'} of ${r.amount}.</b>
        ${r.categories.map(([cat, seats]) => html` <span class="cat"><b>${cat}</b>: ${seats.length ? seats.map(name).join(' and ') : 'void'}${seats.length > 1 ? ' (tied: the point is shared)' : ''}.</span>`)}</p>
      ${r.points.length ? html`<p>${`Points: ${r.points.map(([seat, pts]) => `${name(seat)} ${pointsSpoken(pts)}`).join(', ')}. ${r.shares.map(([seat, chips]) => `${name(seat)} wins ${chips}`).join(', ')}.`}</p>`
        : html`<p>${r.shares.map(([seat, chips]) => `${name(seat)} wins ${chips}`).join(', ')}.</p>`}
    </div>`)}
  </section>`;
}

function VariantRules({ variant }) {
  const maxPlayers = Object.entries(variant.max_players || {});
  const holeOptions = variant.hole_card_options || [];
  return html`<article class="rules-variant" aria-labelledby="rules-title">
    <h1 id="rules-title">${variant.name}</h1>
    <p class="lead">${variant.summary}</p>
    <h2>The deal</h2>
    <ul>
      <li>${holeOptions.length > 1 ? `${holeOptions.join(', ')} hole cards (the host chooses; ${variant.hole_cards} by default)` : `${variant.hole_cards} hole cards`}${variant.boards.length ? '' : ', some dealt face up'}.</li>
      <li>At most ${maxPlayers.length > 1 ? maxPlayers.map(([h, n]) => `${n} players with ${h} cards`).join(', ') : `${maxPlayers.length ? maxPlayers[0][1] : 10} players`}.</li>
      <li>${variant.forced_bets === 'bring-in' ? `Antes and a bring-in: on third street the ${variant.bring_in || 'lowest'} up card brings in.` : FORCED[variant.forced_bets] || variant.forced_bets} Betting: ${(variant.betting_options || [variant.betting]).map((b) => BETTING[b] || b).join(' or ')}${(variant.betting_options || []).length > 1 ? ` (${BETTING[variant.betting] || variant.betting} by default)` : ''}.</li>
      ${variant.boards.length ? html`<li>Boards: ${variant.boards.map((b) => `${b.name === 'X' ? 'the Christmas card' : `board ${b.name}`} (${b.size} ${b.size === 1 ? 'card' : 'cards'}${b.tilted ? `, card ${b.tilted} tilted` : ''})`).join(', ')}.</li>` : html`<li>No community cards: every hand is made of your own seven cards.</li>`}
      ${variant.allocation ? html`<li>After the river's betting, each player still in commits their cards in secret: ${Object.entries(variant.allocation).map(([slot, n]) => `${n} to ${slot}`).join(', ')}; the rest are thrown away unseen.</li>` : null}
    </ul>
    <h2>Streets</h2>
    <div class="table-scroll" role="region" aria-label="Streets" tabindex="0"><table class="rules-streets">
      <thead><tr><th scope="col">Street</th><th scope="col">Board cards</th>${variant.boards.length ? null : html`<th scope="col">Hole cards</th>`}<th scope="col">Redraws</th><th scope="col">Betting</th></tr></thead>
      <tbody>${variant.streets.map((s) => streetRow(s, variant))}</tbody>
    </table></div>
    ${variant.streets.some((s) => s.redraw_cap != null) ? html`<p>A redraw gives every player still in the same number of extra hole cards from the pool (the deck less the cards set aside for the boards, plus every folded hand), up to the street's cap counted over the whole hand; you never discard.</p>` : null}
    <h2>Table options</h2>
    <ul>
      ${variant.forced_bets === 'blinds' ? html`<li>Straddle (when the host allows it, off by default; each player's own choice): a player who ticks "Straddle next hand" posts twice the big blind before the cards the next time they are left of the big blind (UTG), or on the button where the host allows that too, and acts last preflop; the choice is then used up. A full raise is at least the straddle. One straddle a hand (the button's first); heads-up there is none.</li>` : null}
      <li>${variant.runs_twice ? 'Running it twice: when every player left is all-in before the last card, each may agree to deal the rest twice or three times (the fewest anyone chose); each run deals every unfinished board and its redraws, and wins its share of every pot.' : 'This game runs an all-in once: its last decisions, or each player\'s own cards, come after the cards to come.'}</li>
    </ul>
    <h2>How the pot is won</h2>
    <p>${variant.split_rule}</p>
    <div class="table-scroll" role="region" aria-label="Categories" tabindex="0"><table class="rules-categories">
      <thead><tr><th scope="col">Category</th><th scope="col">How it is made and ranked</th></tr></thead>
      <tbody>${variant.categories.map((c) => html`<tr data-category=${c.name}><th scope="row">${c.name}</th><td>${c.how}</td></tr>`)}</tbody>
    </table></div>
    <${Example} id=${variant.id} variant=${variant} />
  </article>`;
}

function ChoiceRules({ variant, variants }) {
  return html`<article class="rules-variant" aria-labelledby="rules-title">
    <h1 id="rules-title">${variant.name}</h1>
    <p class="lead">${variant.summary}</p>
    <p>Before each hand the player on the button picks the game (and its options) from these; if the pick does not come in time, the last hand's game is dealt again (${(variantById(variants, variant.default) || { name: variant.default }).name} for the first hand).</p>
    <ul>${(variant.choices || []).map((id) => html`<li><a href=${rulesUrl(id)} onClick=${(e) => { e.preventDefault(); navigate(rulesUrl(id)); }}>${(variantById(variants, id) || { name: id }).name}</a></li>`)}</ul>
  </article>`;
}

function RotationRules({ variant }) {
  const every = variant.every ? `${variant.every} hand${variant.every === 1 ? '' : 's'}` : 'an orbit (until the button has gone round once)';
  return html`<article class="rules-variant" aria-labelledby="rules-title">
    <h1 id="rules-title">${variant.name}</h1>
    <p class="lead">${variant.summary}</p>
    <p>The games are dealt in this order, each for ${every}, then the next; the table shows the game to come and when, and says so before its first hand. A host can also make a rotation of any games.</p>
    <ol>${variant.rotation.map((g) => html`<li><a href=${rulesUrl(g.game)} onClick=${(e) => { e.preventDefault(); navigate(rulesUrl(g.game)); }}>${g.name}</a>${g.betting ? `, ${g.betting}` : ''}</li>`)}</ol>
  </article>`;
}

export function RulesPage({ game, back }) {
  const [variants, setVariants] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => { getVariants().then(setVariants).catch((e) => setError(e.message)); }, []);
  const variant = variantById(variants, game);
  useEffect(() => { document.title = `${variant ? `${variant.name} rules` : 'Rules'} · Boardroom`; }, [variant && variant.id]);
  useEffect(() => {
    const onKey = (e) => { if (e.key === 'Escape' && back) navigate(back); };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [back]);
  const go = (url) => (e) => { e.preventDefault(); navigate(url); };
  return html`<div class="rules-page">
    <header class="topbar">
      <a class="brand" href="/" aria-label="Boardroom home" onClick=${go('/')}><span class="logo" aria-hidden="true">♠</span><span class="brand-name">Boardroom</span></a>
      <div class="game-title"><strong>Rules</strong></div>
      <div class="top-actions">${back ? html`<a class="btn small" href=${back} onClick=${go(back)}>Back to the table</a>` : null}</div>
    </header>
    <main class="rules-main">
      <nav class="panel rules-nav" aria-label="Games">
        <h2>Games</h2>
        <ul>${(variants || []).map((v) => html`<li><a class=${v.id === game ? 'current' : ''} aria-current=${v.id === game ? 'page' : null}
          href=${rulesUrl(v.id)} onClick=${go(rulesUrl(v.id) + (back ? `&back=${encodeURIComponent(back)}` : ''))}>${v.name}</a></li>`)}</ul>
      </nav>
      <div class="panel rules-body">
        ${error ? html`<p class="error" role="alert">${error}</p>` : null}
        ${!variants && !error ? html`<p class="muted">Loading the games…</p>` : null}
        ${variants && !variant ? html`<div><h1>Rules</h1><p>Pick a game to read its rules${game && game !== 'index' ? ` (there is no game "${game}")` : ''}.</p></div>` : null}
        ${variant && variant.choices ? html`<${ChoiceRules} variant=${variant} variants=${variants} />` : null}
        ${variant && variant.rotation ? html`<${RotationRules} variant=${variant} />` : null}
        ${variant && !variant.choices && !variant.rotation ? html`<${VariantRules} key=${variant.id} variant=${variant} />` : null}
      </div>
    </main>
  </div>`;
}
