// The action bar: fold, check or call, bet or raise with a slider, an amount box and the quick
// sizes the server computes (min, half pot, pot, all-in); keyboard shortcuts; pre-actions.
// Every amount here comes from the server's legal actions and sizes: nothing is computed.
import { html } from './html.js';
import { Card, cardName } from './cards.js';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

const QUICK = [['min', 'Min'], ['half_pot', 'Half pot'], ['pot', 'Pot'], ['all_in', 'All-in'], ['max', 'Max']];

export function ActionBar({ conn, legal, sizes, hand }) {
  const low = legal.raise_min;
  const high = legal.raise_max;
  const canRaise = low != null && high != null;
  const fixed = canRaise && low === high; // fixed limit (or all-in only): one size, no sizing
  const [amount, setAmount] = useState(canRaise ? String(low) : '');
  const [busy, setBusy] = useState(false);
  const box = useRef(null);
  const raiseButton = useRef(null);
  const key = `${hand.street}:${low}:${high}:${legal.call}`;
  useEffect(() => { setAmount(canRaise ? String(low) : ''); setBusy(false); }, [key]);
  const act = async (action, extra = {}) => {
    if (busy) return;
    setBusy(true);
    const answer = await conn.send('act', { action, ...extra });
    if (!answer.ok) setBusy(false);
  };
  const raise = () => {
    const value = Number(amount);
    if (!Number.isInteger(value)) { conn.notice('Type a whole number of chips to raise to'); return; }
    act('raise', { amount: value });
  };
  const checkOrCall = () => (legal.check ? act('check') : legal.call != null ? act('call') : null);
  // A pre-action chosen before this turn (check/fold, call any) plays now.
  useEffect(() => {
    const pre = conn.preAction;
    conn.preAction = null;
    if (pre === 'check_fold') act(legal.check ? 'check' : 'fold');
    else if (pre === 'call_any') act(legal.call != null ? 'call' : 'check');
  }, []);
  const handlers = useRef({});
  handlers.current = { act, raise, checkOrCall, sizes, canRaise, legal, fixed };
  // The keys listen from the moment the bar is on the page (a layout effect runs before the
  // browser paints; a plain effect can run a frame later, and a key pressed on hearing "your
  // turn" would be lost).
  useLayoutEffect(() => {
    const onKey = (e) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const h = handlers.current;
      const typing = e.target && ['INPUT', 'SELECT', 'TEXTAREA'].includes(e.target.tagName);
      if (e.key === 'Enter') {
        // Enter raises from the amount box or from no control at all; on a focused button or
        // link it is that control's own Enter (Tab to Call, Enter: a call).
        const control = e.target && e.target.closest && e.target.closest('button, a[href], input, select, textarea');
        if (h.canRaise && (control ? e.target === box.current : true)) { e.preventDefault(); h.raise(); }
        return;
      }
      if (typing) return;
      const k = e.key.toLowerCase();
      if (k === 'f' && h.legal.fold) { e.preventDefault(); h.act('fold'); }
      else if (k === 'c') { e.preventDefault(); h.checkOrCall(); }
      else if (k === 'r' && h.canRaise && h.fixed) { e.preventDefault(); raiseButton.current && raiseButton.current.focus(); }
      else if (k === 'r' && h.canRaise) { e.preventDefault(); box.current && box.current.focus(); box.current && box.current.select(); }
      else if (k === 'p' && h.canRaise && !h.fixed && h.sizes && h.sizes.pot != null) { e.preventDefault(); setAmount(String(h.sizes.pot)); box.current && box.current.focus(); }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  const raiseWord = legal.is_bet ? 'Bet' : 'Raise to';
  return html`<div class="action-bar" role="group" aria-label="Your action">
    ${canRaise && !fixed ? html`<div class="sizing">
      <div class="quick">
        ${sizes ? QUICK.filter(([name]) => sizes[name] != null && !(name === 'max' && sizes.all_in === sizes.max))
          .map(([name, label]) => html`<button class=${`btn small quick-${name}`} type="button" aria-label=${label}
            aria-pressed=${Number(amount) === sizes[name] ? 'true' : 'false'}
            onClick=${() => setAmount(String(sizes[name]))}>${label}</button>`) : null}
      </div>
      <div class="slider-row">
        <input type="range" min=${low} max=${high} step="1" value=${Number(amount) || low} aria-label="Raise amount slider"
          onInput=${(e) => setAmount(e.currentTarget.value)} />
        <input ref=${box} class="amount" type="number" inputmode="numeric" min=${low} max=${high} value=${amount}
          aria-label="Raise amount" onInput=${(e) => setAmount(e.currentTarget.value)} />
      </div>
    </div>` : null}
    <div class="buttons">
      ${legal.fold ? html`<button class="btn act fold" disabled=${busy} onClick=${() => act('fold')} aria-keyshortcuts="F">Fold</button>` : null}
      ${legal.check ? html`<button class="btn act check" disabled=${busy} onClick=${() => act('check')} aria-keyshortcuts="C">Check</button>` : null}
      ${legal.call != null ? html`<button class="btn act call" disabled=${busy} onClick=${() => act('call')} aria-keyshortcuts="C">Call ${legal.call}</button>` : null}
      ${legal.bring_in != null ? html`<button class="btn act call" disabled=${busy} onClick=${() => act('bring_in')}>Bring in ${legal.bring_in}</button>` : null}
      ${canRaise ? html`<button ref=${raiseButton} class="btn act raise" disabled=${busy} onClick=${raise} aria-keyshortcuts="R Enter">${raiseWord} ${amount}</button>` : null}
    </div>
    <div class="keys-hint" aria-hidden="true">F fold · C check/call · R raise · P pot · Enter confirm</div>
  </div>`;
}

export function PreActions({ conn }) {
  const [, setTick] = useState(0);
  const choose = (kind) => { conn.preAction = conn.preAction === kind ? null : kind; setTick((t) => t + 1); };
  return html`<div class="pre-actions" role="group" aria-label="Pre-actions">
    <label class="check"><input type="checkbox" checked=${conn.preAction === 'check_fold'} onChange=${() => choose('check_fold')} /> Check/Fold</label>
    <label class="check"><input type="checkbox" checked=${conn.preAction === 'call_any'} onChange=${() => choose('call_any')} /> Call any</label>
  </div>`;
}

// The draw (draw games): tap the cards to throw (at most `legal.draw`), then Draw, or Stand pat
// with none marked. Keys: 1 to 9 mark the card in that place, Enter draws.
export function DrawBar({ conn, legal, cards }) {
  const most = legal.draw;
  const [thrown, setThrown] = useState([]);
  const [busy, setBusy] = useState(false);
  const key = `${legal.seat}:${cards.join(' ')}`;
  useEffect(() => { setThrown([]); setBusy(false); }, [key]);
  const toggle = (card) => setThrown((now) => (now.includes(card) ? now.filter((c) => c !== card)
    : now.length < most ? [...now, card] : now));
  const draw = async (throwing) => {
    if (busy) return;
    setBusy(true);
    const answer = await conn.send('act', { action: 'draw', cards: throwing.join(' ') });
    if (!answer.ok) setBusy(false);
  };
  const handlers = useRef({});
  handlers.current = { toggle, draw, thrown, cards };
  useLayoutEffect(() => {
    const onKey = (e) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.target && ['INPUT', 'SELECT', 'TEXTAREA'].includes(e.target.tagName)) return;
      const h = handlers.current;
      if (/^[1-9]$/.test(e.key) && Number(e.key) <= h.cards.length) {
        e.preventDefault();
        h.toggle(h.cards[Number(e.key) - 1]);
      } else if (e.key === 'Enter' && !(e.target && e.target.closest && e.target.closest('button, a[href]'))) {
        e.preventDefault();
        h.draw(h.thrown);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  const n = thrown.length;
  return html`<div class="action-bar draw-bar" role="group" aria-label="Your draw">
    <p class="draw-hint">${n ? `Throwing ${n} of at most ${most}` : `Tap up to ${most} card${most === 1 ? '' : 's'} to throw, or stand pat`}</p>
    <div class="draw-cards" role="group" aria-label="The cards to throw">
      ${cards.map((card, i) => html`<button type="button" class=${`draw-card ${thrown.includes(card) ? 'thrown' : ''}`}
          aria-pressed=${thrown.includes(card) ? 'true' : 'false'} aria-keyshortcuts=${String(i + 1)}
          aria-label=${`${cardName(card)}: ${thrown.includes(card) ? 'to throw' : 'to keep'}`} onClick=${() => toggle(card)}
          disabled=${busy || (!thrown.includes(card) && n >= most)}>
        <${Card} card=${card} small=${true} />
      </button>`)}
    </div>
    <div class="buttons">
      <button class="btn act raise" type="button" disabled=${busy} aria-keyshortcuts="Enter" onClick=${() => draw(thrown)}>
        ${n ? `Draw ${n}` : 'Stand pat'}</button>
    </div>
    <div class="keys-hint" aria-hidden="true">1-${Math.min(cards.length, 9)} mark a card · Enter draw</div>
  </div>`;
}
