// The player's own random seed for the next deal (docs/fairness.md): 32 bytes from
// crypto.getRandomValues, sent once per hand as soon as its commitment is published (the
// snapshot's table.fair is open) and before the deal. The server never echoes it back.
const sentFor = new WeakMap(); // connection -> the hand number it sent a seed for

export function randomSeed() {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function offerSeed(conn) {
  const snap = conn.snapshot;
  const fair = snap && snap.table && snap.table.fair;
  const seat = conn.you && conn.you.seat;
  if (!fair || !fair.open || seat == null || conn.role !== 'player') return;
  if ((fair.seeded || []).includes(seat) || sentFor.get(conn) === fair.hand_no) return;
  sentFor.set(conn, fair.hand_no);
  conn.command('seed', { hand_no: fair.hand_no, seed: randomSeed() }).then((answer) => {
    if (!answer.ok) sentFor.delete(conn); // e.g. waiting for approval: try at the next snapshot
  });
}
