// The table's words: what a player would say of each thing that happens in a hand ("Bob calls
// 12", "Ann raises to 48"), in one place for the action log, the replayer and announcements.
// Nothing here computes a rule: every number comes from the server's events and views.

// What the game posts, for the top bar: "1/2" (blinds), "Ante 1 · bet 2" (ante games),
// "Ante 1 · bring-in 1 · 2/4" (stud), from the table's `posts`.
export function postsText(posts) {
  if (!posts) return '';
  if (posts.forced_bets === 'blinds') return `${posts.small_blind}/${posts.big_blind}`;
  if (posts.forced_bets === 'antes') return `Ante ${posts.ante} · bet ${posts.min_bet}`;
  return `Ante ${posts.ante} · bring-in ${posts.bring_in} · ${posts.small_bet}/${posts.big_bet}`;
}
