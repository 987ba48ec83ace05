// The home page: create a room with every host option the server offers (/api/games).
import { html } from './html.js';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { createRoom, getVariants, variantById } from './api.js';
import { saveRoom } from './store.js';
import { navigate } from './nav.js';
import { rulesUrl } from './rules.js';
import { TournamentForm } from './tournament-form.js';

const DEFAULTS = {
  game: 'esg', hole_cards: '', betting: '', bring_in_rule: '', small_blind: 1, big_blind: 2, ante: 0,
  starting_stack: 200, max_seats: 6, action_clock: 30, time_bank: 60, pick_clock: 20,
  pause_between_hands: 6, spectators_allowed: true, seat_approval: false, rabbit_hunting: true,
  straddle: 'off', run_it_twice: true, rotate_every: 0, rotation: [],
};
const OWN_ROTATION = 'rotation'; // the game id of a host's own rotation

function Field({ label, children, hint }) {
  return html`<label class="field"><span class="field-label">${label}</span>${children}${hint ? html`<small>${hint}</small>` : null}</label>`;
}

export function Home() {
  const [variants, setVariants] = useState(null);
  const [form, setForm] = useState(DEFAULTS);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const [join, setJoin] = useState('');
  useEffect(() => {
    document.title = 'Boardroom: multi-board Omaha with friends';
    getVariants().then(setVariants).catch((e) => setError(`Cannot load the games: ${e.message}`));
  }, []);
  const own = form.game === OWN_ROTATION;
  const variant = useMemo(() => (own ? null : variantById(variants, form.game)), [variants, form.game, own]);
  const isChoice = variant && variant.choices;
  const isRotation = own || !!(variant && variant.rotation);
  const holeOptions = variant && variant.hole_card_options ? variant.hole_card_options : [];
  const hole = Number(form.hole_cards) || (variant && variant.hole_cards);
  const mostOf = (v) => (v && v.max_players ? (typeof v.max_players === 'number' ? v.max_players : Math.max(...Object.values(v.max_players))) : 10);
  const maxPlayers = own ? Math.min(10, ...form.rotation.map((id) => mostOf(variantById(variants, id))))
    : isChoice ? 10 : variant && variant.rotation ? variant.max_players
      : variant && variant.max_players ? (variant.max_players[String(hole)] || 10) : 10;
  const toggleRotation = (id) => setForm((f) => ({ ...f, rotation: f.rotation.includes(id) ? f.rotation.filter((g) => g !== id) : [...f.rotation, id] }));
  const set = (name) => (e) => {
    const target = e.currentTarget;
    const value = target.type === 'checkbox' ? target.checked : target.value;
    setForm((f) => ({ ...f, [name]: value }));
  };
  const chooseGame = (e) => {
    const id = e.currentTarget.value;
    const v = variantById(variants, id);
    setForm((f) => {
      const next = { ...f, game: id, hole_cards: '', betting: '', bring_in_rule: '' };
      const cap = mostOf(v);
      if (Number(next.max_seats) > cap) next.max_seats = Math.min(cap, 6);
      return next;
    });
  };
  async function submit(e) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const body = { game: form.game };
    for (const name of ['small_blind', 'big_blind', 'ante', 'starting_stack', 'max_seats']) body[name] = Number(form[name]);
    for (const name of ['action_clock', 'time_bank', 'pick_clock', 'pause_between_hands']) body[name] = Number(form[name]);
    body.spectators_allowed = !!form.spectators_allowed;
    body.seat_approval = !!form.seat_approval;
    body.rabbit_hunting = !!form.rabbit_hunting;
    body.run_it_twice = !!form.run_it_twice;
    if (form.straddle !== 'off') body.straddle = form.straddle;
    if (isRotation) {
      body.rotate_every = Number(form.rotate_every);
      if (own) body.rotation = form.rotation;
    } else if (!isChoice) {
      if (form.hole_cards) body.hole_cards = Number(form.hole_cards);
      if (form.betting) body.betting = form.betting;
      if (form.bring_in_rule) body.bring_in_rule = form.bring_in_rule;
    }
    try {
      const made = await createRoom(body);
      saveRoom(made.room, { host_secret: made.host_secret, join_link: made.join_link });
      navigate(`/?room=${encodeURIComponent(made.room)}`);
    } catch (err) {
      setError(err.message);
      setBusy(false);
    }
  }
  const choices = variants ? variants.filter((v) => v.id !== 'dealers-choice' && !v.rotation) : [];
  const dc = variantById(variants, 'dealers-choice');
  const rotations = variants ? variants.filter((v) => v.rotation) : [];
  return html`<div class="home">
    <header class="home-head">
      <div class="brand big"><span class="logo" aria-hidden="true">♠</span> Boardroom</div>
      <p class="tagline">Private tables for multi-board, points-scored Omaha. Create a room, share the link, deal.</p>
    </header>
    <main class="home-main">
      <form class="panel create" onSubmit=${submit} aria-label="Create a room">
        <h1>Create a room</h1>
        <${Field} label="Game">
          <select name="game" value=${form.game} onChange=${chooseGame} aria-label="Game">
            ${choices.map((v) => html`<option value=${v.id}>${v.name}</option>`)}
            ${dc ? html`<option value=${dc.id}>${dc.name}</option>` : null}
            ${rotations.map((v) => html`<option value=${v.id}>${v.name}</option>`)}
            ${variants ? html`<option value=${OWN_ROTATION}>Your own rotation</option>` : null}
          </select>
        <//>
        ${own ? html`<fieldset class="rotation-games">
          <legend>The games of your rotation, in the order you tick them</legend>
          ${choices.map((v) => html`<label class="check"><input type="checkbox" checked=${form.rotation.includes(v.id)} onChange=${() => toggleRotation(v.id)} />
            ${v.name}${form.rotation.includes(v.id) ? html` <span class="order">(${form.rotation.indexOf(v.id) + 1})</span>` : null}</label>`)}
          ${form.rotation.length < 2 ? html`<small>Tick two games or more.</small>` : null}
        </fieldset>` : null}
        ${variant ? html`<div class="game-card">
          <strong>${variant.name}</strong>
          <p>${variant.summary} <a href=${rulesUrl(variant.id)} onClick=${(e) => { e.preventDefault(); navigate(rulesUrl(variant.id)); }}>Rules of ${variant.name}</a></p>
          ${variant.boards && variant.boards.length ? html`<p class="meta">Boards ${variant.boards.map((b) => `${b.name}(${b.size})`).join(' · ')}
            · categories ${(variant.categories || []).map((c) => c.name).join(' · ')}</p>` : null}
        </div>` : null}
        <div class="grid">
          ${!isChoice && holeOptions.length > 1 ? html`<${Field} label="Hole cards">
            <select name="hole_cards" value=${form.hole_cards || variant.hole_cards} onChange=${set('hole_cards')} aria-label="Hole cards">
              ${holeOptions.map((n) => html`<option value=${n}>${n}</option>`)}
            </select><//>` : null}
          ${!isChoice && variant && (variant.betting_options || []).length > 1 ? html`<${Field} label="Betting">
            <select name="betting" value=${form.betting || variant.betting} onChange=${set('betting')} aria-label="Betting">
              ${variant.betting_options.map((b) => html`<option value=${b}>${b}</option>`)}
            </select><//>` : null}
          ${!isChoice && variant && variant.bring_in ? html`<${Field} label="Bring-in by">
            <select name="bring_in_rule" value=${form.bring_in_rule || variant.bring_in} onChange=${set('bring_in_rule')} aria-label="Bring-in by">
              <option value="highest">highest card</option><option value="lowest">lowest card</option>
            </select><//>` : null}
          <${Field} label="Small blind"><input type="number" min="1" name="small_blind" value=${form.small_blind} onInput=${set('small_blind')} aria-label="Small blind" /><//>
          <${Field} label="Big blind"><input type="number" min="1" name="big_blind" value=${form.big_blind} onInput=${set('big_blind')} aria-label="Big blind" /><//>
          <${Field} label="Ante" hint="0: the small blind"><input type="number" min="0" name="ante" value=${form.ante} onInput=${set('ante')} aria-label="Ante" /><//>
          <${Field} label="Starting stack"><input type="number" min="1" name="starting_stack" value=${form.starting_stack} onInput=${set('starting_stack')} aria-label="Starting stack" /><//>
          <${Field} label="Seats" hint=${`at most ${maxPlayers}`}><input type="number" min="2" max=${maxPlayers} name="max_seats" value=${form.max_seats} onInput=${set('max_seats')} aria-label="Seats" /><//>
          <${Field} label="Action clock (s)"><input type="number" min="1" name="action_clock" value=${form.action_clock} onInput=${set('action_clock')} aria-label="Action clock" /><//>
          <${Field} label="Time bank (s)"><input type="number" min="0" name="time_bank" value=${form.time_bank} onInput=${set('time_bank')} aria-label="Time bank" /><//>
          ${isRotation ? html`<${Field} label="Change game every" hint="hands; 0: every orbit"><input type="number" min="0" max="100" name="rotate_every" value=${form.rotate_every} onInput=${set('rotate_every')} aria-label="Change game every" /><//>` : null}
          ${isChoice ? html`<${Field} label="Pick clock (s)"><input type="number" min="1" name="pick_clock" value=${form.pick_clock} onInput=${set('pick_clock')} aria-label="Pick clock" /><//>` : null}
          ${!variant || variant.forced_bets === 'blinds' || isChoice || variant.rotation ? html`<${Field} label="Straddle" hint="blind games: who may choose to post twice the big blind, acting last preflop"><select name="straddle" value=${form.straddle} onChange=${set('straddle')} aria-label="Straddle">
            <option value="off">not allowed</option><option value="utg">UTG may straddle</option><option value="utg-button">UTG or button may straddle</option>
          </select><//>` : null}
          <${Field} label="Pause between hands (s)"><input type="number" min="0" name="pause_between_hands" value=${form.pause_between_hands} onInput=${set('pause_between_hands')} aria-label="Pause between hands" /><//>
        </div>
        <div class="checks">
          <label class="check"><input type="checkbox" name="spectators_allowed" checked=${form.spectators_allowed} onChange=${set('spectators_allowed')} /> Spectators may watch</label>
          <label class="check"><input type="checkbox" name="seat_approval" checked=${form.seat_approval} onChange=${set('seat_approval')} /> I approve every player who sits</label>
          <label class="check"><input type="checkbox" name="rabbit_hunting" checked=${form.rabbit_hunting} onChange=${set('rabbit_hunting')} /> Players may hunt the rabbit (see the cards a hand did not deal)</label>
          <label class="check"><input type="checkbox" name="run_it_twice" checked=${form.run_it_twice} onChange=${set('run_it_twice')} /> All-in players may run it twice or three times</label>
        </div>
        ${error ? html`<p class="error" role="alert">${error}</p>` : null}
        <button class="btn primary big" type="submit" disabled=${busy || !variants}>Create room</button>
      </form>
      <aside class="panel side">
        <h2>Join a room</h2>
        <form class="join" onSubmit=${(e) => { e.preventDefault(); const id = (join.match(/room=([\w-]+)/) || [null, join.trim()])[1]; if (id) navigate(`/?room=${encodeURIComponent(id)}`); }}>
          <input placeholder="Room link or id" value=${join} onInput=${(e) => setJoin(e.currentTarget.value)} aria-label="Room link or id" />
          <button class="btn" type="submit">Join</button>
        </form>
        <h2>The games</h2>
        <ul class="game-list">
          ${(variants || []).map((v) => html`<li><a class="game-rules" href=${rulesUrl(v.id)} aria-label=${`${v.name}: rules`}
            onClick=${(e) => { e.preventDefault(); navigate(rulesUrl(v.id)); }}><strong>${v.name}</strong></a> <span>${v.summary}</span></li>`)}
        </ul>
        <p><a href=${rulesUrl('index')} onClick=${(e) => { e.preventDefault(); navigate(rulesUrl('index')); }}>All the rules</a></p>
      </aside>
    </main>
    <div class="home-main home-tourney"><${TournamentForm} variants=${variants} /></div>
  </div>`;
}
