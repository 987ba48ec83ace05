// The room's chat: a toggle with an unread count, and a panel with the lines (name and text,
// yours marked), a box and a Send button. Lines are rendered as text (htm escapes them), never
// as HTML. Errors from the server (too long, too many messages) show inside the panel.
import { html } from './html.js';
import { useEffect, useRef, useState } from 'preact/hooks';
import { loadRoom, saveRoom } from './store.js';

export const CHAT_MAX = 500; // docs/protocol.md: a chat text is 1 to 500 characters

export function isMine(conn, line) {
  if (conn.sentChat.has(line.version)) return true;
  const you = conn.you || {};
  if (line.seat == null || you.seat == null || line.seat !== you.seat) return false;
  const seat = conn.snapshot && conn.snapshot.table.seats[you.seat];
  return !!seat && seat.name === line.name; // the seat may have changed hands since
}

// The last chat version this browser has read (kept per room, so a reload keeps it), and the
// unread lines: others' lines after it. While the panel is open everything is read.
export function useChatUnread(conn, room, open) {
  const [seen, setSeen] = useState(() => loadRoom(room).chat_seen || 0);
  const lines = (conn && conn.chat) || [];
  const last = lines.length ? lines[lines.length - 1].version : 0;
  useEffect(() => {
    if (open && last > seen) {
      setSeen(last);
      saveRoom(room, { chat_seen: last });
    }
  }, [open, last, seen, room]);
  if (!conn || open) return 0;
  return lines.filter((line) => line.version > seen && !isMine(conn, line)).length;
}

export function ChatToggle({ open, setOpen, unread }) {
  return html`<button class="btn small chat-toggle" type="button" aria-expanded=${open ? 'true' : 'false'}
      aria-controls="chat-panel" onClick=${() => setOpen(!open)}>
    Chat${unread ? html` <span class="unread" data-unread=${unread}>${unread > 99 ? '99+' : unread}<span class="sr-only"> unread</span></span>` : null}
  </button>`;
}

export function ChatPanel({ conn, close }) {
  const [text, setText] = useState('');
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const list = useRef(null);
  const box = useRef(null);
  const lines = conn.chat;
  const last = lines.length ? lines[lines.length - 1].version : 0;
  useEffect(() => { if (box.current) box.current.focus(); }, []);
  useEffect(() => { if (list.current) list.current.scrollTop = list.current.scrollHeight; }, [last]);
  const send = async (e) => {
    e.preventDefault();
    if (busy) return;
    if (!text.trim()) { setError('Type a message first'); return; }
    setBusy(true);
    const answer = await conn.sendChat(text);
    setBusy(false);
    if (answer.ok) { setText(''); setError(null); } else setError(answer.error || 'the message was not sent');
    if (box.current) box.current.focus();
  };
  const you = conn.you || {};
  return html`<aside class="chat-panel" id="chat-panel" role="region" aria-label="Chat">
    <div class="chat-head">
      <strong>Chat</strong>
      <button class="btn small icon" type="button" aria-label="Close chat" onClick=${close}>✕</button>
    </div>
    <ol class="chat-lines" ref=${list} aria-label="Chat messages" aria-live="polite">
      ${lines.length ? null : html`<li class="chat-empty muted">No messages yet.</li>`}
      ${lines.map((line) => {
        const mine = isMine(conn, line);
        return html`<li key=${line.version} class=${`chat-line ${mine ? 'mine' : ''}`} data-version=${line.version}>
          <span class="chat-name">${line.name}</span>${line.seat == null ? html`<span class="chat-role"> (watching)</span>` : null}${mine ? html`<span class="chat-you"> (you)</span>` : null}
          <span class="chat-text">${line.text}</span>
        </li>`;
      })}
    </ol>
    ${error ? html`<p class="chat-error error" role="alert">${error}</p>` : null}
    <form class="chat-form" onSubmit=${send}>
      <input ref=${box} type="text" maxLength=${CHAT_MAX} value=${text} aria-label="Chat message"
        placeholder=${you.role === 'spectator' ? 'Say something (as a spectator)' : 'Say something'} autocomplete="off"
        onInput=${(e) => { setText(e.currentTarget.value); if (error) setError(null); }} />
      <button class="btn small primary" type="submit" disabled=${busy}>Send</button>
    </form>
  </aside>`;
}
