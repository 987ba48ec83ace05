// Allocation (Allocator games): put your cards on A, B and Hand by dragging them onto a slot or
// by tapping a card to cycle it through the slots; "Suggest" asks the server for its optimiser
// allocation (the `suggest` command: computed only when asked for) and fills it in; "Commit" sends the `allocate` command
// (docs/protocol.md: {cards: {"A": [...], "B": [...], "Hand": [...]}}).
import { html } from './html.js';
import { useEffect, useState } from 'preact/hooks';
import { Card } from './cards.js';

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
    const at = placed[card];
    const next = at == null ? names[0] : names[names.indexOf(at) + 1];
    setPlaced({ ...placed, [card]: next ?? null });
  };
  const put = (card, slot) => { if (!committed) setPlaced({ ...placed, [card]: slot }); };
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
      data-card=${c} aria-label=${`${c}: ${placed[c] ? `on ${placed[c]}` : 'not placed'}, tap to move`}
      onDragStart=${(e) => { e.dataTransfer.setData('text/plain', c); e.dataTransfer.effectAllowed = 'move'; }}
      onClick=${() => cycle(c)}><${Card} card=${c} small=${true} /></button>`;
  return html`<div class=${`allocation panel ${committed ? 'committed' : ''}`} role="group" aria-label="Allocate your cards">
    <div class="alloc-head"><strong>Allocate</strong> <span class="muted">drag a card onto a slot, or tap it to cycle A → B → Hand</span></div>
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
