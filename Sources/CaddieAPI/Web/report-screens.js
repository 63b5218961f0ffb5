// The report screens: a game's standings (drawn again from each live standings event), a player's statistics and
// the game's audit log; loaded when one of them first opens (app.js), kept by the service worker for a dead zone.

import { h, mount } from './render.js';
import { get, enc } from './api.js';
import * as card from './store.js';

/** The formats whose standings have their own section or column (the rest are drawn from their results). */
const OWN_SECTIONS = ['stroke', 'stableford', 'match', 'skins', 'nassau'];


function toPar(value, thru) {
  if (!thru || value === null || value === undefined) return '–';
  return value === 0 ? 'E' : value > 0 ? `+${value}` : `${value}`;
}

/** The players' table of the standings. It fits an upright phone with the money in view: only the columns of the
 * formats played, and the gross and playing handicap (both on the card) left out where the screen is narrow. */
function standingsTable(s, order, money) {
  // On a phone the gross columns give way to the games' own (the money last, always in view): with three or more
  // of those, gross to par is left to wider screens too, as gross strokes and the playing handicap always are.
  const games = (s.formats.includes('stableford') ? 1 : 0) + (s.formats.includes('skins') ? 1 : 0)
    + s.results.filter((r) => r.column).length + (s.stake !== null ? 1 : 0);
  const columns = [
    ['Thru', null, (p) => `${p.thru}`],
    // A player who picked up a hole has no total: NR (no return) in gross, to par and net.
    ['Gross', 'wide', (p) => (p.noReturn ? 'NR' : p.thru ? `${p.gross}` : '–')],
    ['To par', games >= 3 ? 'wide' : null, (p) => (p.noReturn ? 'NR' : toPar(p.grossToPar, p.thru))],
    ['PH', 'wide', (p) => p.playingHandicap ?? '–'],
    ['Net', null, (p) => (p.noReturn ? 'NR' : toPar(p.netToPar, p.thru)), 'Net to par'],
    s.formats.includes('stableford') ? ['Pts', null, (p) => p.points ?? '–', 'Stableford points'] : null,
    s.formats.includes('skins') ? ['Skins', null, (p) => `${p.skins}`] : null,
    ...s.results.filter((r) => r.column).map((r) => [r.column.label, null,
      (p) => r.column.values.find((v) => v.player === p.player)?.value ?? '–', `${r.title} points`]),
    s.stake !== null ? ['±', 'money', (p) => money(p.amount), 'Won or lost'] : null,
  ].filter(Boolean);
  return h('div', { class: 'scroll' }, h('table', { class: 'standings' },
    h('caption', {}, 'Players (PH: playing handicap at 95%; Net: net to par)'),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Player'),
      columns.map(([label, kind, , title]) => h('th', { scope: 'col', class: kind, title: title ?? null }, label)))),
    h('tbody', {}, order.map((p) => h('tr', {},
      h('th', { scope: 'row' }, h('a', { href: `#/player/${p.player}`, title: `${p.name}'s statistics` }, p.name)),
      columns.map(([, kind, value]) => h('td', { class: kind }, value(p))))))));
}

export async function showStandings(app, gameText) {
  const { state, base, loadCard } = app;
  const game = gameText === 'current' ? (await get(`${base()}/games/current`)).game : gameText;
  state.standings = game;
  const [s] = await Promise.all([get(`${base()}/games/${enc(game)}/standings`), loadCard(game)]);
  drawStandings(app, game, s);
}

/** Draws a game's standings (as `GET .../standings` or a live `standings` event gives them), unless the user has
 * gone to another screen since they were asked for. */
export function drawStandings(app, game, s) {
  const { state, main, nav, base, disputesBanner } = app;
  if (state.standings !== game || !window.location.hash.endsWith('/standings')) return;
  const money = (amount) => amount === null ? '' : amount.toFixed(2);
  const order = [...s.players].sort((a, b) => Number(a.noReturn === true) - Number(b.noReturn === true)
    || (a.netToPar ?? a.grossToPar) - (b.netToPar ?? b.grossToPar));
  mount(main,
    nav('standings'),
    h('h2', {}, `Standings · ${s.course ?? 'Course'}`),
    h('p', { class: 'hint' }, `Holes ${s.holes[0]}–${s.holes[s.holes.length - 1]} · ${s.formats.join(', ')}`
      + (s.stake !== null ? ` · ${money(s.stake)} a unit` : '')),
    state.card?.game === game ? disputesBanner() : null,
    s.disputes.length ? h('section', { class: 'hint', 'aria-label': 'What the disputes decide' },
      h('ul', { class: 'list' }, s.disputes.map((d) => h('li', {}, d.text)))) : null,
    standingsTable(s, order, money),
    s.match ? h('section', { 'aria-label': 'Match' }, h('h3', {}, `Match: ${s.sides[0].name} v ${s.sides[1].name}`),
      h('p', { class: 'big' }, s.match.status)) : null,
    s.nassau ? h('section', { 'aria-label': 'Nassau' }, h('h3', {}, `Nassau: ${s.sides[0].name} v ${s.sides[1].name}`),
      h('ul', { class: 'list' }, s.nassau.bets.map((bet) => h('li', {}, h('strong', {}, bet.name),
        bet.pressedBy ? ` (pressed by ${bet.pressedBy})` : '', `: ${bet.status}`)))) : null,
    s.skins ? h('section', { 'aria-label': 'Skins' }, h('h3', {}, `Skins (${s.skins.net ? 'net' : 'gross'})`),
      h('ol', { class: 'list skins' }, s.skins.holes.filter((hole) => hole.outcome !== 'undecided')
        .map((hole) => h('li', {}, h('strong', {}, `${hole.hole}`), `: ${hole.outcome}`))),
      s.skins.carry ? h('p', {}, `${s.skins.carry} carried`) : null) : null,
    s.results.filter((r) => !OWN_SECTIONS.includes(r.format) && r.scored).map((r) =>
      h('section', { 'aria-label': r.title }, h('h3', {}, r.title), h('p', { class: 'big' }, r.summary),
        r.lines.length && !r.column ? h('ul', { class: 'list' }, r.lines.map((line) => h('li', {}, h('strong', {}, line.label), `: ${line.value}`))) : null,
        r.holes.length ? h('ol', { class: 'list skins' }, r.holes.map((hole) => h('li', {}, h('strong', {}, `${hole.hole}`), `: ${hole.text}`))) : null)),
    s.stake !== null ? h('section', { 'aria-label': 'Settlement' }, h('h3', {}, 'Settlement',
      s.provisional ? h('span', { class: 'tag bad' }, ' provisional: a dispute changes it') : null),
      s.settlement.length === 0 ? h('p', {}, 'Nothing owed.')
        : h('ul', { class: 'list' }, s.settlement.map((t) => h('li', {}, `${t.fromName} pays ${t.toName} ${money(t.amount)}`)))) : null,
    s.notes.length ? h('ul', { class: 'hint' }, s.notes.map((note) => h('li', {}, note))) : null,
    h('p', {}, h('a', { href: `${base()}/games/${enc(game)}/card.html`, target: '_blank', rel: 'noopener' },
      'The card to print and hand in'), ' · ', h('a', { href: `${base()}/games/${enc(game)}/card.csv` }, 'CSV')));
}

export async function showStats(app, player) {
  const { main, nav, base } = app;
  const s = await get(`${base()}/players/${enc(player)}/stats`);
  const rate = (r) => (r.percent === null ? 'not recorded' : `${r.hit} of ${r.recorded} (${Math.round(r.percent)}%)`);
  const number = (value, digits = 1) => (value === null ? 'not recorded' : value.toFixed(digits));
  mount(main,
    nav('standings'),
    h('h2', {}, `${s.name}: statistics`),
    h('p', { class: 'hint' }, `Over ${s.rounds} finished round${s.rounds === 1 ? '' : 's'} (${s.holes} holes).`),
    h('dl', { class: 'stats' },
      h('dt', {}, 'Fairways hit'), h('dd', {}, rate(s.fairways)),
      h('dt', {}, 'Greens in regulation'), h('dd', {}, rate(s.greensInRegulation)),
      h('dt', {}, 'Putts per round'), h('dd', {}, number(s.puttsPerRound)),
      h('dt', {}, 'Putts per green in regulation'), h('dd', {}, number(s.puttsPerGreenInRegulation, 2)),
      h('dt', {}, 'Penalty strokes'), h('dd', {}, `${s.penalties}` + (s.penaltiesPerRound === null ? '' : ` (${number(s.penaltiesPerRound)} a round)`)),
      s.byPar.map((p) => [h('dt', {}, `Par ${p.par} average`), h('dd', {}, `${number(p.average, 2)} over ${p.holes} holes`)])),
    h('p', { class: 'hint' }, 'Fairways and greens count where they were entered (caddie score --fairway, --gir).'));
}

// MARK: Audit log

/** The audit log's filters: by player and by hole, over the change's own words ("score Ana hole 3: ..."). */
function logFilters(state, entries, game) {
  const players = state.card?.game === game ? state.card.players.map((p) => p.name) : [];
  const holes = state.card?.game === game ? Array.from({ length: state.card.holes }, (_, i) => i + 1) : [];
  const apply = () => {
    const who = document.getElementById('log-player').value;
    const hole = document.getElementById('log-hole').value;
    for (const item of document.querySelectorAll('#log-entries > li')) {
      const change = item.dataset.change;
      const shown = (!who || change.includes(who))
        && (!hole || change.includes(`hole ${hole}:`));
      item.hidden = !shown;
    }
  };
  return h('div', { class: 'inline wrap log-filters' },
    h('label', { for: 'log-player' }, 'Player'),
    h('select', { id: 'log-player', onchange: apply }, h('option', { value: '' }, 'everyone'), players.map((n) => h('option', { value: n }, n))),
    h('label', { for: 'log-hole' }, 'Hole'),
    h('select', { id: 'log-hole', onchange: apply }, h('option', { value: '' }, 'every hole'), holes.map((n) => h('option', { value: n }, `${n}`))));
}

export async function showLog(app, gameText) {
  const { state, main, nav, base, loadCard } = app;
  const game = gameText === 'current' ? (await get(`${base()}/games/current`)).game : gameText;
  const [entries] = await Promise.all([get(`${base()}/log?game=${enc(game)}`), loadCard(game).catch(() => null)]);
  mount(main,
    nav('log'),
    h('h2', {}, 'Audit log'),
    h('p', { class: 'hint' }, 'Every change to this game, newest first: who signed it, on which device, and whether its signature checks. A change that a revocation took out of the card stays listed, marked, and so does every change of a device that signed two different histories (both stay in the card).'),
    logFilters(state, entries, game),
    h('ol', { class: 'list log', id: 'log-entries' }, [...entries].reverse().map((entry) => h('li', { 'data-change': entry.change },
      h('span', { class: entry.verified ? 'tag live' : 'tag bad' }, entry.verified ? '✓ signature valid' : '✗ signature INVALID'),
      entry.verified && entry.coveredBy && entry.coveredBy !== entry.op
        ? [' ', h('span', { class: 'tag', title: 'its own signature does not check; a later change of the same device, linked to it hash by hash, signs for it' }, `signed by its change ${card.opLabel(entry.coveredBy)}`)] : null,
      entry.removed ? [' ', h('span', { class: 'tag bad', title: entry.removed }, 'not in the card')] : null,
      entry.forkBranch ? [' ', h('span', { class: 'tag bad', title: 'its device signed two different histories; both stay in the card' }, 'forked device')] : null,
      state.device && entry.device === state.device.device
        ? [' ', h('span', { class: 'tag mine', title: `signed by this phone's own device ${state.device.device.slice(0, 8)}` }, 'this phone')] : null,
      ` ${card.clock(entry.time)} ${entry.user}: ${entry.change}${entry.removed ? ` (${entry.removed})` : ''} `,
      h('small', {}, `(${card.opLabel(entry.op)})`)))));
}
