// Cards drawn with our own CSS and SVG suit symbols (DESIGN.md): face, back and empty slot.
import { html } from './html.js';

const SUITS = { s: ['♠', 'spades'], h: ['♥', 'hearts'], d: ['♦', 'diamonds'], c: ['♣', 'clubs'] };
const RANKS = { T: '10', J: 'J', Q: 'Q', K: 'K', A: 'A' };
// Spoken names: "ace of spades", "10 of hearts" (the rank as the card face prints it, so a
// control's accessible name contains the text it shows; screen readers say "ten").
const RANK_NAMES = { A: 'ace', K: 'king', Q: 'queen', J: 'jack', T: '10' };

export function cardName(card) {
  if (!card) return 'hidden card';
  return `${RANK_NAMES[card[0]] || card[0]} of ${SUITS[card[1]] ? SUITS[card[1]][1] : card[1]}`;
}

const SUIT_PATHS = {
  s: 'M12 2C9 7 3 9.5 3 14a4.5 4.5 0 0 0 8 2.8L10 22h4l-1-5.2A4.5 4.5 0 0 0 21 14c0-4.5-6-7-9-12z',
  h: 'M12 21.5C6 16.5 2.5 13 2.5 8.6A4.9 4.9 0 0 1 12 6.3a4.9 4.9 0 0 1 9.5 2.3c0 4.4-3.5 7.9-9.5 12.9z',
  d: 'M12 1.8L20.5 12 12 22.2 3.5 12z',
  c: 'M12 2.2a4.3 4.3 0 0 0-3.4 7A4.3 4.3 0 1 0 10.6 16L10 22h4l-.6-6a4.3 4.3 0 1 0 2-6.8A4.3 4.3 0 0 0 12 2.2z',
};

export function SuitIcon({ suit }) {
  return html`<svg class="suit-icon" viewBox="0 0 24 24" aria-hidden="true"><path d=${SUIT_PATHS[suit]} /></svg>`;
}

// A card: `card` is "As", null for a card we may not see (a back), undefined for an empty slot.
export function Card({ card, tilted = false, small = false, extraClass = '', label, ...rest }) {
  const cls = ['card', small ? 'small' : '', tilted ? 'tilted' : '', extraClass].filter(Boolean).join(' ');
  if (card === undefined) {
    return html`<div class=${`${cls} slot`} aria-hidden="true" ...${rest}></div>`;
  }
  if (card === null) {
    return html`<div class=${`${cls} back`} role="img" aria-label=${label || 'face-down card'} ...${rest}></div>`;
  }
  const rank = card[0];
  const suit = card[1];
  return html`<div class=${`${cls} face suit-${suit}`} data-card=${card} role="img"
      aria-label=${label || cardName(card)} ...${rest}>
    <span class="rank">${RANKS[rank] || rank}</span>
    <${SuitIcon} suit=${suit} />
    <span class="pip"><${SuitIcon} suit=${suit} /></span>
  </div>`;
}
