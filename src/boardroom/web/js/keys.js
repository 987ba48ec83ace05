// The room's keyboard: `?` opens the help overlay listing every key, S says the table summary,
// Escape closes what is open. The action bar's own keys (F, C, R, P, Enter) live in actions.js
// and the allocation's (A, B, H, U, arrows) in allocation.js; this list documents them all.
import { html } from './html.js';
import { useLayoutEffect, useRef } from 'preact/hooks';

export const KEYS = [
  ['Your turn', [
    ['F', 'fold'],
    ['C', 'check, or call the amount shown'],
    ['R', 'go to the raise amount (type it, then Enter)'],
    ['P', 'put a pot-sized raise in the amount box'],
    ['Enter', 'raise or bet the amount in the box'],
  ]],
  ['The draw (draw games)', [
    ['1 to 5', 'mark (or unmark) the card in that place to throw'],
    ['Enter', 'draw the marked cards, or stand pat with none marked'],
  ]],
  ['Allocation (Allocator games)', [
    ['Tab or the arrow keys', 'move between your cards'],
    ['A, B, H (or 1, 2, 3)', 'move the focused card to A, B or the Hand'],
    ['U or Backspace', 'take the focused card back off its slot'],
    ['Enter or Space', 'move the focused card to the next slot'],
  ]],
  ['Anywhere at the table', [
    ['S', 'say a summary of the table: boards, your cards and hand, pot, stacks, who is to act'],
    ['?', 'open or close this list'],
    ['Escape', 'close this list, the host controls or the rules'],
    ['Tab, Shift+Tab', 'move through every control; the focused one is outlined in gold'],
  ]],
];

export const isTyping = (target) => !!target && (['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName) || target.isContentEditable);

// Global keys of the room page: `?` toggles the help, S asks for the summary.
export function useRoomKeys({ onHelp, onSummary }) {
  const handlers = useRef({});
  handlers.current = { onHelp, onSummary };
  useLayoutEffect(() => {
    const onKey = (e) => {
      if (e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      if (e.key === '?') { e.preventDefault(); handlers.current.onHelp(); } else if (e.key === 's' || e.key === 'S') {
        if (document.querySelector('[role="dialog"][aria-modal="true"]')) return;
        e.preventDefault();
        handlers.current.onSummary();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}

// A dialog: focus moves in on open (to the element marked data-autofocus, or the first
// control), Escape closes it (the last one opened, wherever the focus is) and focus goes back
// where it was; a modal one (`trap`) keeps Tab inside.
const openDialogs = [];

export function useDialog(ref, close, { trap = true } = {}) {
  const closer = useRef(close);
  closer.current = close;
  useLayoutEffect(() => { // before the paint: the first key after it opens reaches it
    const previous = document.activeElement;
    const box = ref.current;
    const me = {};
    openDialogs.push(me);
    const controls = () => [...box.querySelectorAll('button, a[href], input, select, textarea, [tabindex]:not([tabindex="-1"])')]
      .filter((el) => !el.disabled);
    const first = box.querySelector('[data-autofocus]') || controls()[0] || box;
    first.focus();
    const onEscape = (e) => {
      if (e.key !== 'Escape' || openDialogs[openDialogs.length - 1] !== me) return;
      e.preventDefault();
      closer.current();
    };
    const onTab = (e) => {
      if (e.key !== 'Tab' || !trap) return;
      const list = controls();
      if (!list.length) return;
      const at = list.indexOf(document.activeElement);
      if (e.shiftKey && at <= 0) { e.preventDefault(); list[list.length - 1].focus(); } else if (!e.shiftKey && at === list.length - 1) { e.preventDefault(); list[0].focus(); }
    };
    document.addEventListener('keydown', onEscape);
    box.addEventListener('keydown', onTab);
    return () => {
      openDialogs.splice(openDialogs.indexOf(me), 1);
      document.removeEventListener('keydown', onEscape);
      box.removeEventListener('keydown', onTab);
      if (previous && previous.isConnected && previous.focus) previous.focus();
    };
  }, []);
}

export function KeyHelp({ close }) {
  const box = useRef(null);
  useDialog(box, close);
  return html`<div class="overlay" onClick=${(e) => { if (e.target === e.currentTarget) close(); }}>
    <div class="panel key-help" role="dialog" aria-modal="true" aria-labelledby="key-help-title" ref=${box}>
      <div class="row spread"><h2 id="key-help-title">Keyboard</h2>
        <button class="btn small" type="button" onClick=${close} data-autofocus aria-label="Close the keyboard help">✕</button></div>
      ${KEYS.map(([title, keys]) => html`<section class="key-group" aria-label=${title}>
        <h3>${title}</h3>
        <dl>${keys.map(([key, what]) => html`<div class="key-row"><dt><kbd>${key}</kbd></dt><dd>${what}</dd></div>`)}</dl>
      </section>`)}
      <p class="muted">A screen reader hears every action, board card, redraw and pot as it happens, and your turn with what you may do. None of these keys fire while you type in a box.</p>
    </div>
  </div>`;
}
