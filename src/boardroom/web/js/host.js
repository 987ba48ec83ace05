// The host panel: approve seats and rebuys, set stacks, kick, add and remove bots, pause and
// resume, deal now (end the pause before a hand), pass the host role, close the room. Every button sends a host command; the server
// checks it.
import { html } from './html.js';
import { useRef, useState } from 'preact/hooks';
import { useDialog } from './keys.js';

// The room's link for spectators: the seat link with watch=1, which opens the table watching.
export function watchLink(link) {
  const url = new URL(link, location.origin);
  url.searchParams.set('watch', '1');
  return url.toString();
}

const BOT_STYLES = [['tight', 'Tight'], ['loose', 'Loose'], ['random', 'Random'], ['station', 'Calling station']];

function SeatRow({ conn, seat, bot }) {
  const [stack, setStack] = useState('');
  const n = seat.seat;
  return html`<li class="host-seat" data-seat=${n}>
    <span class="who"><b>${n + 1}.</b> ${seat.name} <small class="muted">${bot ? `${bot} bot · ` : ''}${seat.status} · ${seat.stack}</small></span>
    ${seat.status === 'pending' ? html`<button class="btn small primary" aria-label=${`Approve ${seat.name}`} onClick=${() => conn.send('approve', { seat: n })}>Approve</button>` : null}
    ${seat.rebuy_requested ? html`<button class="btn small" aria-label=${`Approve rebuy ${seat.rebuy_requested} for ${seat.name}`} onClick=${() => conn.send('approve_rebuy', { seat: n })}>Approve rebuy ${seat.rebuy_requested}</button>` : null}
    <input type="number" min="0" placeholder="stack" value=${stack} aria-label=${`New stack for ${seat.name}`} onInput=${(e) => setStack(e.currentTarget.value)} />
    <button class="btn small" aria-label=${`Set stack of ${seat.name}`} onClick=${() => stack !== '' && conn.send('set_stack', { seat: n, amount: Number(stack) })}>Set stack</button>
    ${bot ? html`<button class="btn small danger" aria-label=${`Remove bot ${seat.name}`} onClick=${() => conn.send('remove_bot', { seat: n })}>Remove bot</button>`
      : html`<button class="btn small" onClick=${() => conn.send('transfer_host', { seat: n })}>Make <span class="sr-only">${seat.name} </span>host</button>
    <button class="btn small danger" aria-label=${`Kick ${seat.name}`} onClick=${() => conn.send('kick', { seat: n })}>Kick</button>`}
  </li>`;
}

function AddBot({ conn, full }) {
  const [style, setStyle] = useState('tight');
  return html`<div class="row add-bot">
    <select value=${style} onChange=${(e) => setStyle(e.currentTarget.value)} aria-label="Bot style">
      ${BOT_STYLES.map(([id, label]) => html`<option value=${id}>${label}</option>`)}
    </select>
    <button class="btn small" disabled=${full} onClick=${() => conn.send('add_bot', { style })}>Add bot</button>
    ${full ? html`<span class="muted small">Every seat is taken.</span>` : null}
  </div>`;
}

// A link and its copy button (the seat link and the watch link).
function ShareLink({ label, link }) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    if (navigator.clipboard) navigator.clipboard.writeText(link).catch(() => {});
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return html`<div class="row share-row">
    <span class="share-label">${label}</span>
    <input class="share-link" readonly value=${link} aria-label=${label} onFocus=${(e) => e.currentTarget.select()} />
    <button class="btn small" onClick=${copy} aria-label=${`Copy ${label.toLowerCase()}`}>${copied ? 'Copied' : 'Copy'}</button>
  </div>`;
}

export function HostPanel({ conn, close, link }) {
  const table = conn.snapshot.table;
  const seated = table.seats.filter((s) => !s.empty);
  const bots = conn.snapshot.bots || {};
  const box = useRef(null);
  useDialog(box, close, { trap: false }); // focus moves in; Escape closes and gives it back
  return html`<aside class="host-panel panel" role="dialog" aria-labelledby="host-title" ref=${box}>
    <div class="row spread"><h2 id="host-title" tabindex="-1" data-autofocus>Host controls</h2><button class="btn small" onClick=${close} aria-label="Close host controls">✕</button></div>
    <div class="row">
      ${table.paused ? html`<button class="btn primary small" onClick=${() => conn.send('resume')}>Resume</button>`
        : html`<button class="btn small" onClick=${() => conn.send('pause')}>Pause</button>`}
      ${table.phase === 'between' && !table.paused ? html`<button class="btn small" onClick=${() => conn.send('deal_now')}>Deal now</button>` : null}
      <button class="btn small danger" onClick=${() => confirm('Close this room after the hand?') && conn.send('close')}>Close room</button>
    </div>
    ${link ? html`<${ShareLink} label="Seat link" link=${link} /><${ShareLink} label="Watch link" link=${watchLink(link)} />` : null}
    ${seated.length ? html`<ul class="host-seats">${seated.map((s) => html`<${SeatRow} key=${s.seat} conn=${conn} seat=${s} bot=${bots[String(s.seat)]} />`)}</ul>`
      : html`<p class="muted">Nobody sits yet. Share the link.</p>`}
    <${AddBot} conn=${conn} full=${seated.length === table.seats.length} />
  </aside>`;
}
