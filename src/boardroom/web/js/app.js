// Boardroom's browser client: the router between the home page, a room and its hand history.
import { html, render } from './html.js';
import { useEffect, useState } from 'preact/hooks';
import { Home } from './home.js';
import { RoomPage } from './room.js';
import { HistoryPage } from './history.js';
import { RulesPage } from './rules.js';
import { TournamentPage } from './tournament.js';
import { saveRoom, saveTournament } from './store.js';

// A host link (`/?room=ID#host=SECRET`, printed by `boardroom play`) hands this browser the
// host's secret: keep it like the home page does for a room it creates, and drop it from the URL.
function takeHostLink() {
  const params = new URLSearchParams(location.search);
  const secret = new URLSearchParams(location.hash.slice(1)).get('host');
  if (params.get('room') && secret) {
    saveRoom(params.get('room'), { host_secret: secret });
    history.replaceState(null, '', location.pathname + location.search);
  } else if (params.get('tournament') && secret) {
    saveTournament(params.get('tournament'), { host_secret: secret });
    history.replaceState(null, '', location.pathname + location.search);
  }
}
takeHostLink();

function route() {
  const params = new URLSearchParams(location.search);
  return {
    room: params.get('room'),
    tournament: params.get('tournament'),
    results: params.get('results') === '1',
    watch: params.get('watch') === '1',
    history: params.get('history') === '1',
    hand: params.get('hand') ? Number(params.get('hand')) : null,
    rules: params.get('rules'),
    back: params.get('back'),
  };
}

function App() {
  const [where, setWhere] = useState(route());
  useEffect(() => {
    const update = () => setWhere(route());
    window.addEventListener('popstate', update);
    window.addEventListener('boardroom:navigate', update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener('boardroom:navigate', update);
    };
  }, []);
  if (where.rules) return html`<${RulesPage} game=${where.rules} back=${where.back && where.back.startsWith('/') && !where.back.startsWith('//') ? where.back : null} />`;
  if (where.room && where.history) return html`<${HistoryPage} room=${where.room} hand=${where.hand} />`;
  if (where.tournament) return html`<${TournamentPage} key=${where.tournament} tournament=${where.tournament} results=${where.results} />`;
  if (where.room) return html`<${RoomPage} key=${where.room + where.watch} room=${where.room} watch=${where.watch} />`;
  return html`<${Home} />`;
}

const root = document.getElementById('app');
root.textContent = '';
render(html`<${App} />`, root);
