// Allocation (Allocator games): put your cards on A, B and Hand by dragging them onto a slot, by
// tapping a card to cycle it through the slots, or with keys on a focused card (A, B, H or 1, 2,
// 3 move it there, U or Backspace takes it back, the arrow keys move between cards; the focus
// follows the card); "Suggest" asks the server for its optimiser
// allocation (the `suggest` command: computed only when asked for) and fills it in; "Commit" sends the `allocate` command
// (docs/protocol.md: {cards: {"A": [...], "B": [...], "Hand": [...]}}).
import { html } from './html.js';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Card, cardName } from './cards.js';

export function isAllocating(hand, variant) {
  return !!(variant && variant.allocation && hand.allocating);
}

export function Allocation({ conn, hand, mine, variant }) {
  const slots = Object.entries(variant.allocation); // [["A", 2], ["B", 2], ["Hand", 2]]
  const names = slots.map(([name]) => name);
  const [placed, setPlaced] = useState({}); // card -> slot name
  const [committed, setCommitted] = useState(false);
  const [over, setOver] = useState(null);
  const cards = mine.cards.filter(Boolean);
  const own = hand.allocation && hand.allocation.length ? hand.allocation : null;
  useEffect(() => {
    if (!own) return;
    setCommitted(true);
    const next = {};
    for (const [slot, list] of own) for (const c of list) next[c] = slot;
    setPlaced(next);
  }, [own && own.length]);
  const cycle = (card) => {
    if (committed) return;
    focusCard.current = card;
    const at = placed[card];
    const next = at == null ? names[0] : names[names.indexOf(at) + 1];
    setPlaced({ ...placed, [card]: next ?? null });
  };
  const put = (card, slot) => { if (!committed) setPlaced({ ...placed, [card]: slot }); };
  const focusCard = useRef(null); // the card to keep the focus on once it has moved
  useEffect(() => {
    const card = focusCard.current;
    focusCard.current = null;
    if (card) { const el = document.querySelector(`.alloc-card[data-card="${card}"]`); if (el) el.focus(); }
  });
  const onKey = (card) => (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || committed) return;
    const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    const index = /^[1-9]$/.test(k) ? Number(k) - 1 : names.findIndex((n) => n[0].toLowerCase() === k);
    if (index >= 0 && index < names.length) {
      e.preventDefault(); e.stopPropagation();
      focusCard.current = card;
      put(card, names[index]);
    } else if (k === 'u' || k === 'Backspace' || k === 'Delete' || k === '0') {
      e.preventDefault(); e.stopPropagation();
      focusCard.current = card;
      put(card, null);
    } else if (['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].includes(k)) {
      e.preventDefault();
      const all = [...document.querySelectorAll('.allocation .alloc-card')];
      const at = all.indexOf(e.currentTarget);
      const step = k === 'ArrowLeft' || k === 'ArrowUp' ? -1 : 1;
      const next = all[(at + step + all.length) % all.length];
      if (next) next.focus();
    }
  };
  const [asking, setAsking] = useState(false);
  const suggest = async () => {
    setAsking(true);
    const suggestion = await conn.suggest();
    setAsking(false);
    if (!suggestion) return;
    const next = {};
    for (const [slot, list] of Object.entries(suggestion)) for (const c of list) next[c] = slot;
    setPlaced(next);
  };
  const groups = Object.fromEntries(names.map((n) => [n, cards.filter((c) => placed[c] === n)]));
  const ready = slots.every(([n, size]) => groups[n].length === size);
  const commit = async () => {
    const answer = await conn.send('allocate', { cards: groups });
    if (answer.ok) setCommitted(true);
  };
  const dropOn = (slot) => ({
    onDragOver: (e) => { e.preventDefault(); setOver(slot); },
    onDragLeave: () => setOver(null),
    onDrop: (e) => { e.preventDefault(); setOver(null); put(e.dataTransfer.getData('text/plain'), slot); },
  });
  const cardEl = (c) => html`<button class="alloc-card" type="button" key=${c} draggable=${!committed}
      data-card=${c} aria-label=${`${cardName(c)}: ${placed[c] ? `on ${placed[c]}` : 'not placed'}`}
      aria-description=${committed ? null : `tap to move; keys ${names.map((n) => n[0]).join(', ')} put it there, U takes it back`}
      onKeyDown=${onKey(c)}
      onDragStart=${(e) => { e.dataTransfer.setData('text/plain', c); e.dataTransfer.effectAllowed = 'move'; }}
      onClick=${() => cycle(c)}><${Card} card=${c} small=${true} /></button>`;
  return html`<div class=${`allocation panel ${committed ? 'committed' : ''}`} role="group" aria-label="Allocate your cards">
    <div class="alloc-head"><strong>Allocate</strong> <span class="muted">drag a card onto a slot, tap it to cycle A → B → Hand, or focus it and press A, B or H</span></div>
    <div class="alloc-slots">
      ${slots.map(([name, size]) => html`<div class=${`alloc-slot ${over === name ? 'over' : ''} ${groups[name].length === size ? 'full' : ''}`}
          data-slot=${name} role="group" aria-label=${`Slot ${name}`} ...${dropOn(name)}>
        <span class="slot-name">${name} <small>${groups[name].length}/${size}</small></span>
        <div class="slot-cards">${groups[name].map(cardEl)}</div>
      </div>`)}
    </div>
    <div class="alloc-tray" data-slot="" role="group" aria-label="Unplaced cards" ...${dropOn(null)}>
      ${cards.filter((c) => !placed[c]).map(cardEl)}
    </div>
    <div class="row">
      <button class="btn" type="button" onClick=${suggest} disabled=${asking || committed}
        title="Fill in the optimiser allocation">Suggest</button>
      <button class="btn" type="button" onClick=${() => setPlaced({})} disabled=${committed}>Clear</button>
      <button class="btn primary" type="button" onClick=${commit} disabled=${!ready || committed}>${committed ? 'Committed' : 'Commit'}</button>
    </div>
    ${committed ? html`<p class="muted">Committed. Everyone's allocation is revealed when all are in.</p>` : null}
  </div>`;
}
