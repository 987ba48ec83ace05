// The action log: every action, card dealt, redraw (a count), allocation, pot and points of the
// hands at this table, in a player's words (words.js), as a scrollable panel that follows the
// latest line unless the reader scrolled up.
import { html } from './html.js';
import { useEffect, useRef } from 'preact/hooks';

export function LogToggle({ open, setOpen }) {
  return html`<button class="btn small log-toggle" type="button" aria-expanded=${open ? 'true' : 'false'}
    aria-controls="log-panel" onClick=${() => setOpen(!open)}>Log</button>`;
}

export function LogPanel({ conn, close }) {
  const list = useRef(null);
  const follow = useRef(true);
  const lines = conn.log;
  useEffect(() => {
    if (list.current && follow.current) list.current.scrollTop = list.current.scrollHeight;
  }, [lines.length, lines.length && lines[lines.length - 1].text]);
  const onScroll = (e) => {
    const box = e.currentTarget;
    follow.current = box.scrollTop + box.clientHeight >= box.scrollHeight - 8;
  };
  return html`<aside class="chat-panel log-panel" id="log-panel" role="region" aria-label="Action log">
    <div class="chat-head">
      <strong>Action log</strong>
      <button class="btn small icon" type="button" aria-label="Close the action log" onClick=${close}>✕</button>
    </div>
    <ol class="log-lines" ref=${list} onScroll=${onScroll} aria-label="Actions" tabindex="0">
      ${lines.length ? null : html`<li class="muted">Nothing has happened yet.</li>`}
      ${lines.map((line, i) => html`<li key=${i} class=${line.head ? 'log-head' : 'log-line'}>${line.text}</li>`)}
    </ol>
  </aside>`;
}
