// The home page's "Host a tournament" form: the game or a rotation, a structure preset or the
// host's own levels (saved and loaded as a TOML file), the payouts, the tables, bots to fill.
import { html } from './html.js';
import { useEffect, useState } from 'preact/hooks';
import { navigate } from './nav.js';
import { saveTournament } from './store.js';
import { addBots, createTournament, getStructures, lobbyUrl, parseStructure, structureToml } from './tournament-api.js';

const OWN = 'rotation';
const SETTINGS = [ // the structure's settings beside its levels: [name, label, hint]
  ['starting_stack', 'Starting stack', ''],
  ['late_registration_levels', 'Late registration', 'until the end of level N; 0: none'],
  ['max_entries', 'Entries per player', '1: a freezeout; more: re-entry'],
  ['rebuy_levels', 'Rebuys during', 'the first N levels; 0: none'],
  ['rebuy_chips', 'Rebuy chips', ''],
  ['max_rebuys', 'Rebuys per entry', '0: no limit'],
  ['addon_chips', 'Add-on chips', 'one add-on, in the level after the rebuys; 0: none'],
];

const mostSeats = (v) => (!v || !v.max_players ? 10 : typeof v.max_players === 'number' ? v.max_players : Math.max(...Object.values(v.max_players)));

function download(text, name) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/toml' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

// A level row of the editor <-> the structure's level: {small_blind, big_blind, ante, minutes|hands} or {break}.
const toRow = (entry) => ('break' in entry ? { kind: 'break', length: entry.break }
  : { kind: 'level', small_blind: entry.small_blind, big_blind: entry.big_blind, ante: entry.ante || 0,
    length: entry.minutes ?? entry.hands, unit: entry.minutes != null ? 'minutes' : 'hands' });
const fromRow = (row) => (row.kind === 'break' ? { break: Number(row.length) }
  : { small_blind: Number(row.small_blind), big_blind: Number(row.big_blind), ante: Number(row.ante), [row.unit]: Number(row.length) });

export function structureOf(edit) {
  const out = { name: edit.name, ante_mode: edit.ante_mode, levels: edit.rows.map(fromRow) };
  for (const [name] of SETTINGS) out[name] = Number(edit[name]);
  return out;
}

function editOf(structure) {
  const edit = { name: structure.name, ante_mode: structure.ante_mode, rows: structure.levels.map(toRow) };
  for (const [name] of SETTINGS) edit[name] = structure[name];
  return edit;
}

function Field({ label, hint, children }) {
  return html`<label class="field"><span class="field-label">${label}</span>${children}${hint ? html`<small>${hint}</small>` : null}</label>`;
}

export function TournamentForm({ variants }) {
  const [presets, setPresets] = useState(null);
  const [form, setForm] = useState({
    name: 'Home tournament', game: 'esg', rotation: [], rotate_every: 0, preset: 'turbo', table_size: 6,
    buy_in: 100, action_clock: 30, payouts: 'preset', percents: '50, 30, 20', bots: 0, bot_style: 'tight',
    entry_approval: false,
  });
  const [edit, setEdit] = useState(null); // the host's own structure, once they edit one
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => { getStructures().then(setPresets).catch((e) => setError(`Cannot load the structures: ${e.message}`)); }, []);
  const set = (name) => (e) => { const value = e.currentTarget.value; setForm((f) => ({ ...f, [name]: value })); };
  const setEditField = (name) => (e) => { const value = e.currentTarget.value; setEdit((s) => ({ ...s, [name]: value })); };
  const setRow = (k, name) => (e) => {
    const value = e.currentTarget.value;
    setEdit((s) => ({ ...s, rows: s.rows.map((row, i) => (i === k ? { ...row, [name]: value } : row)) }));
  };
  const addRow = (kind) => setEdit((s) => {
    const last = [...s.rows].reverse().find((r) => r.kind === 'level');
    const row = kind === 'break' ? { kind, length: 10 }
      : { kind, small_blind: last ? last.small_blind * 2 : 10, big_blind: last ? last.big_blind * 2 : 20, ante: last ? last.ante * 2 : 0, length: last ? last.length : 15, unit: last ? last.unit : 'minutes' };
    return { ...s, rows: [...s.rows, row] };
  });
  const removeRow = (k) => setEdit((s) => ({ ...s, rows: s.rows.filter((_, i) => i !== k) }));
  const own = form.game === OWN;
  const choices = variants ? variants.filter((v) => !v.rotation) : [];
  const games = own ? form.rotation : [form.game];
  const seats = Math.min(10, ...games.map((id) => mostSeats((variants || []).find((v) => v.id === id))));
  const toggle = (id) => setForm((f) => ({ ...f, rotation: f.rotation.includes(id) ? f.rotation.filter((g) => g !== id) : [...f.rotation, id] }));
  const startEditing = () => presets && setEdit(editOf(presets[form.preset] || presets.turbo));

  async function save() {
    setError(null);
    try {
      const structure = structureOf(edit);
      download(await structureToml(structure), `${structure.name || 'structure'}.toml`);
    } catch (err) { setError(`The structure cannot be saved: ${err.message}`); }
  }
  async function load(e) {
    const file = e.currentTarget.files && e.currentTarget.files[0];
    e.currentTarget.value = '';
    if (!file) return;
    setError(null);
    try { setEdit(editOf(await parseStructure(await file.text()))); } catch (err) { setError(`${file.name}: ${err.message}`); }
  }
  async function submit(e) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const body = {
      name: form.name, games, rotate_every: Number(form.rotate_every), table_size: Number(form.table_size),
      buy_in: Number(form.buy_in), action_clock: Number(form.action_clock), structure: edit ? structureOf(edit) : form.preset,
      entry_approval: form.entry_approval,
    };
    if (form.payouts === 'custom') body.payouts = form.percents.split(/[,\s]+/).filter(Boolean).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
    try {
      const made = await createTournament(body);
      saveTournament(made.tournament, { host_secret: made.host_secret });
      if (Number(form.bots) > 0) await addBots(made.tournament, made.host_secret, form.bot_style, Number(form.bots));
      navigate(lobbyUrl(made.tournament));
    } catch (err) {
      setError(err.message);
      setBusy(false);
    }
  }
  return html`<form class="panel create tourney-form" onSubmit=${submit} aria-labelledby="host-tournament">
    <h2 id="host-tournament">Host a tournament</h2>
    <div class="grid">
      <${Field} label="Tournament name"><input value=${form.name} maxlength="60" onInput=${set('name')} aria-label="Tournament name" /><//>
      <${Field} label="Tournament game">
        <select value=${form.game} onChange=${set('game')} aria-label="Tournament game">
          ${choices.map((v) => html`<option value=${v.id}>${v.name}</option>`)}
          ${variants ? html`<option value=${OWN}>A rotation of games</option>` : null}
        </select><//>
      ${own ? html`<${Field} label="Change game every" hint="hands at each table; 0: every level">
        <input type="number" min="0" value=${form.rotate_every} onInput=${set('rotate_every')} aria-label="Change game every" /><//>` : null}
    </div>
    ${own ? html`<fieldset class="rotation-games"><legend>The rotation's games, in the order you tick them</legend>
      ${choices.filter((v) => v.id !== 'dealers-choice').map((v) => html`<label class="check"><input type="checkbox" checked=${form.rotation.includes(v.id)} onChange=${() => toggle(v.id)} />
        ${v.name}${form.rotation.includes(v.id) ? html` <span class="order">(${form.rotation.indexOf(v.id) + 1})</span>` : null}</label>`)}
    </fieldset>` : null}
    <div class="grid">
      <${Field} label="Structure">
        <select value=${edit ? 'custom' : form.preset} onChange=${(e) => { const v = e.currentTarget.value; if (v === 'custom') startEditing(); else { setEdit(null); setForm((f) => ({ ...f, preset: v })); } }} aria-label="Structure">
          ${Object.keys(presets || { turbo: 1, standard: 1, deep: 1 }).map((name) => html`<option value=${name}>${name}</option>`)}
          <option value="custom">your own levels</option>
        </select><//>
      <${Field} label="Seats per table" hint=${`at most ${seats}`}><input type="number" min="2" max=${seats} value=${form.table_size} onInput=${set('table_size')} aria-label="Seats per table" /><//>
      <${Field} label="Buy-in" hint="tournament units"><input type="number" min="1" value=${form.buy_in} onInput=${set('buy_in')} aria-label="Buy-in" /><//>
      <${Field} label="Action clock (s)"><input type="number" min="1" max="600" value=${form.action_clock} onInput=${set('action_clock')} aria-label="Tournament action clock" /><//>
      <${Field} label="Payouts">
        <select value=${form.payouts} onChange=${set('payouts')} aria-label="Payouts">
          <option value="preset">by the field's size</option><option value="custom">your own percents</option>
        </select><//>
      ${form.payouts === 'custom' ? html`<${Field} label="Percents" hint="best place first; they add up to 100">
        <input value=${form.percents} onInput=${set('percents')} aria-label="Payout percents" /><//>` : null}
      <${Field} label="Bots to fill" hint="added now; more from the lobby"><input type="number" min="0" max="200" value=${form.bots} onInput=${set('bots')} aria-label="Bots to fill" /><//>
      <${Field} label="Bot style">
        <select value=${form.bot_style} onChange=${set('bot_style')} aria-label="Bot style for the field">
          <option value="tight">tight</option><option value="loose">loose</option><option value="station">station</option>
        </select><//>
    </div>
    <label class="check"><input type="checkbox" checked=${form.entry_approval} aria-label="Approve each entry"
      onChange=${(e) => { const on = e.currentTarget.checked; setForm((f) => ({ ...f, entry_approval: on })); }} />
      Approve each entry (people who enter through the link wait for you in the lobby)</label>
    <div class="row">
      ${!edit ? html`<button class="btn small" type="button" onClick=${startEditing} disabled=${!presets}>Edit the levels</button>` : null}
      <label class="btn small file-button">Load a structure (TOML)<input type="file" accept=".toml,text/plain" class="sr-only" onChange=${load} aria-label="Load a structure file" /></label>
    </div>
    ${edit ? html`<fieldset class="structure-edit"><legend>Your structure</legend>
      <div class="grid">
        <${Field} label="Structure name"><input value=${edit.name} onInput=${setEditField('name')} aria-label="Structure name" /><//>
        <${Field} label="Antes"><select value=${edit.ante_mode} onChange=${setEditField('ante_mode')} aria-label="Antes">
          <option value="each">from every player</option><option value="big-blind">from the big blind</option></select><//>
        ${SETTINGS.map(([name, label, hint]) => html`<${Field} label=${label} hint=${hint}>
          <input type="number" min="0" value=${edit[name]} onInput=${setEditField(name)} aria-label=${label} /><//>`)}
      </div>
      <div class="scroll"><table class="tourney-table levels-edit">
        <thead><tr><th scope="col">#</th><th scope="col">Small blind</th><th scope="col">Big blind</th><th scope="col">Ante</th><th scope="col">Length</th><th scope="col"><span class="sr-only">Remove</span></th></tr></thead>
        <tbody>${edit.rows.map((row, k) => {
          const n = edit.rows.slice(0, k + 1).filter((r) => r.kind === 'level').length;
          return row.kind === 'break' ? html`<tr class="break-row"><th scope="row">Break</th><td colspan="3"></td>
              <td><input type="number" min="1" value=${row.length} onInput=${setRow(k, 'length')} aria-label=${`Break after level ${n}: minutes`} /> minutes</td>
              <td><button class="btn small" type="button" onClick=${() => removeRow(k)} aria-label=${`Remove the break after level ${n}`}>×</button></td></tr>`
            : html`<tr><th scope="row">${n}</th>
              <td><input type="number" min="1" value=${row.small_blind} onInput=${setRow(k, 'small_blind')} aria-label=${`Level ${n}: small blind`} /></td>
              <td><input type="number" min="1" value=${row.big_blind} onInput=${setRow(k, 'big_blind')} aria-label=${`Level ${n}: big blind`} /></td>
              <td><input type="number" min="0" value=${row.ante} onInput=${setRow(k, 'ante')} aria-label=${`Level ${n}: ante`} /></td>
              <td><input type="number" min="1" value=${row.length} onInput=${setRow(k, 'length')} aria-label=${`Level ${n}: length`} />
                <select value=${row.unit} onChange=${setRow(k, 'unit')} aria-label=${`Level ${n}: length in`}><option value="minutes">minutes</option><option value="hands">hands</option></select></td>
              <td><button class="btn small" type="button" onClick=${() => removeRow(k)} aria-label=${`Remove level ${n}`}>×</button></td></tr>`;
        })}</tbody>
      </table></div>
      <div class="row">
        <button class="btn small" type="button" onClick=${() => addRow('level')}>Add a level</button>
        <button class="btn small" type="button" onClick=${() => addRow('break')}>Add a break</button>
        <button class="btn small" type="button" onClick=${save}>Save as TOML</button>
      </div>
    </fieldset>` : null}
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    <button class="btn primary big" type="submit" disabled=${busy || !variants || (own && form.rotation.length < 2)}>Create tournament</button>
  </form>`;
}
