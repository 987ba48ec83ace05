// The boards as the variant defines them (/api/games): side by side, XMAS's Christmas card,
// Tilt's boards stacked so the gold, turned tilted cards form the diagonal.
import { html } from './html.js';
import { Card, cardName } from './cards.js';

// `rabbit` (after a rabbit hunt): the cards each board would have got, drawn after the dealt
// ones, dimmed and labelled "not dealt". `small`: small cards (a later run's boards).
export function Boards({ hand, variant, rabbit = null, small = false }) {
  const specs = variant && variant.boards ? variant.boards
    : Object.entries(hand.boards || {}).map(([name, cards]) => ({ name, size: Math.max(5, cards.length) }));
  if (!specs.length) return null;
  const tilt = specs.some((b) => b.tilted);
  const widest = Math.max(...specs.map((b) => b.size));
  const big = specs.filter((b) => b.size > 1);
  const singles = specs.filter((b) => b.size === 1);
  const board = (spec, row) => {
    const dealt = (hand.boards || {})[spec.name] || [];
    const hunted = (rabbit && rabbit[spec.name]) || [];
    const cards = [...dealt, ...hunted];
    const slots = [];
    const offset = tilt && spec.tilted ? Math.max(0, widest - row - spec.tilted) : 0;
    for (let i = 0; i < offset; i += 1) slots.push(html`<div class="card spacer" aria-hidden="true"></div>`);
    for (let i = 0; i < spec.size; i += 1) {
      const notDealt = i >= dealt.length && i < cards.length;
      slots.push(html`<${Card} key=${i} card=${i < cards.length ? cards[i] : undefined} small=${small}
        tilted=${spec.tilted === i + 1} extraClass=${notDealt ? 'rabbit' : ''}
        label=${notDealt ? `${cardName(cards[i])}, not dealt (rabbit hunt)` : undefined} />`);
    }
    const christmas = !tilt && spec.size === 1;
    return html`<div class=${`board ${christmas ? 'christmas' : ''} ${spec.size === 1 ? 'single' : ''}`}
        data-board=${spec.name} role="group" aria-label=${christmas ? 'Christmas card' : `Board ${spec.name}`}>
      <span class="board-name">${christmas ? '★' : spec.name}</span>
      <div class="board-cards">${slots}</div>
    </div>`;
  };
  if (tilt) {
    return html`<div class="boards tilt" style=${`--cols:${widest}`}>${specs.map((s, r) => board(s, r))}</div>`;
  }
  return html`<div class=${`boards n${big.length}`}>
    ${big.map((s) => board(s, 0))}
    ${singles.map((s) => board(s, 0))}
  </div>`;
}
