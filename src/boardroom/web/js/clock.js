// The clock of the seat to act: the action clock, then the time bank (in gold).
import { html } from './html.js';
import { useEffect, useState } from 'preact/hooks';

export function Clock({ conn, turn, seat }) {
  const [, setNow] = useState(0);
  useEffect(() => { const t = setInterval(() => setNow((x) => x + 1), 200); return () => clearInterval(t); }, []);
  if (!turn || turn.deadline == null) return null;
  const settings = conn.snapshot.table.settings;
  const bank = seat.time_bank || 0;
  const left = Math.max(0, turn.deadline - conn.serverNow());
  const inBank = left <= bank;
  const part = inBank ? left / Math.max(bank, 1) : (left - bank) / Math.max(settings.action_clock, 1);
  const shown = Math.ceil(inBank ? left : left - bank);
  return html`<div class=${`clock ${inBank ? 'bank' : ''}`} role="timer" aria-label=${inBank ? `time bank ${shown} seconds` : `${shown} seconds to act`}>
    <div class="clock-bar" style=${`width:${Math.min(100, part * 100)}%`}></div>
    <span class="clock-text">${inBank ? 'Bank ' : ''}${shown}s${!inBank && bank ? html` <small>+${Math.round(bank)}</small>` : null}</span>
  </div>`;
}
