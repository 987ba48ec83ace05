// Seats in a hand view. Every seat number the server sends (in table events, hand events, hand
// views and histories) is the table's own, so a hand view's seats are found by their number and
// nothing is translated from one numbering into another.

// The view of the player at table seat `seat` in hand view `hand` (null: not dealt in).
export function seatInHand(hand, seat) {
  return (hand && hand.seats.find((s) => s.seat === seat)) || null;
}
