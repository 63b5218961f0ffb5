// The Caddie web app: games, the live card, conflicts, history, the audit log, attest/finish and sync status,
// over the node's HTTP API and live events. Screens are chosen by the address's hash (#/games, #/game/ID, ...).

import { h, mount } from './render.js';
import { get, post, patch, enc, offline } from './api.js';
import { connect } from './live.js';
import * as card from './store.js';
import * as outbox from './outbox.js';
import * as local from './local.js';
import * as device from './device.js';
import * as ops from './ops.js';
import { sender } from './send.js';

const main = document.getElementById('main');
const statusLine = document.getElementById('status');
const announcer = document.getElementById('announce');

const state = {
  me: null,          // whoami
  space: null,       // the space shown
  spaces: [],        // every space the node holds (a chooser on the Games screen when there are two or more)
  starting: null,    // the first answers (whoami, the spaces) while they are awaited
  game: null,        // the game id of the open card
  lastGame: null,    // the game last opened here: the Card, Standings and Log screens open it
  card: null,        // its card document
  hole: null,        // the hole shown on a phone
  draft: new Map(),  // "hole:player" -> {strokes, putts, fairway, gir, seen} typed and not yet saved, kept on the phone;
                     // `seen` names the values the cell showed when the draft began (what saving it replaces)
  more: new Set(),   // players whose fairway and green controls are open
  saved: null,       // the words shown after a hole was saved, until the hole changes
  pending: [],       // the outbox: entries saved on this phone that no node has taken yet (outbox.js)
  device: null,      // this phone's own device (device.js), or null while the node signs its entries
  link: 'connecting',
  opened: 0,         // how many times the live stream opened: each reopening refetches the screen
  sendTimer: null,
  linkTimer: null,
  sendAgain: false,
  sendAttempt: 0,
  sending: false,
  signedOut: false,
  shownHash: null,   // the address of the screen last drawn: a different one opens at its top
  sentOps: new Set(), // the ops the node signed for entries this page sent (its own ops are its device's)
  landed: [],        // score entries the node took whose ops the open card does not show yet (see land)
  landedTimer: null,
};

/** The phone's signing and sending (send.js). */
const { send, signScores, signOne, signChoice, signAttest } = sender({
  state, landedOf, onCardScreen, land, loadCard, fetchSetup, setStatus, renderCard,
});

/** The entries the card draws as this phone's: those waiting in the outbox, and those a node took whose ops the card
 * does not show yet (so a value never blinks out between the send and the card the node pushes after it). */
function shownEntries() {
  return state.landed.length ? [...state.pending, ...state.landed] : state.pending;
}

/** The op names of the entries a node took for a cell that the card does not show yet: an entry made now replaces
 * them as it replaces the values the card shows. */
function landedOf(space, game, player, hole) {
  return state.landed.filter((e) => e.space === space && e.game === game && e.player === player && e.hole === hole)
    .map((e) => e.name);
}

/** After a send, with the live stream open: the node pushes the card after the commit, so the sent score entries
 * stay drawn as they were until a card shows their ops, with no read. If none does within 3 s (the stream dropped,
 * or another device replaced a value at once), the card is read. */
function land(entries) {
  // Only the open card draws them: another game's entries are read with that game's card.
  const waiting = (e) => state.card?.game === e.game && !card.showsOp(state.card, e.name);
  state.landed = [...state.landed, ...entries.filter(waiting)];
  window.clearTimeout(state.landedTimer);
  if (!state.landed.length) return;
  state.landedTimer = window.setTimeout(async () => {
    state.landed = [];
    if (!onCardScreen()) return;
    try { await loadCard(state.game); } catch (error) { /* the card shows what the phone keeps */ }
    renderCard();
  }, 3000);
}

/** Whether an op is this phone's own entry: signed by its device, or signed by the node for an entry it sent. */
function mine(op) {
  return state.sentOps.has(op) || (Boolean(state.device?.device) && String(op).startsWith(`${state.device.device}:`));
}

function say(text) {
  announcer.textContent = '';
  window.setTimeout(() => { announcer.textContent = text; }, 30);
}

function setStatus() {
  const labels = { live: 'Live', reconnecting: 'The node is out of reach', closed: 'Disconnected: reload the page',
    connecting: 'Connecting…' };
  const parts = [offline.noRoom ? 'The node has no room for this phone just now (too many devices behind this address): it asks again soon'
    : labels[state.link] ?? state.link];
  if (offline.since !== null) parts.push(`showing the card as of ${new Date(offline.since).toTimeString().slice(0, 5)}`);
  if (state.signedOut) parts.push('signed out: sign in again to send');
  const pending = outbox.pendingText(state.pending);
  if (pending) parts.push(pending);
  else if (state.link !== 'live') parts.push('scores entered now stay on this phone until a node answers');
  // Who signs entries made here: this phone's own user once it joined the space, else the node's.
  const signer = state.device && state.space && state.device.spaces[state.space.space] ? state.device.name
    : partner() ? 'a partner\'s phone, not a device yet' : state.me?.name;
  statusLine.textContent = `${signer ? signer + ' · ' : ''}${parts.join(' · ')}`;
  statusLine.dataset.link = state.link;
  statusLine.dataset.pending = String(state.pending.filter((e) => !e.refused).length);
}

function problem(error) {
  return h('p', { class: 'error', role: 'alert' }, error.message ?? String(error));
}

const base = () => `/v1/spaces/${enc(state.space.space)}`;

// MARK: Routing

async function route() {
  const hash = window.location.hash;
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  offline.since = null;
  try {
    if (!state.me || !state.space) {
      // Who is signed in and which space is shown, asked once however many routes start meanwhile: a route that
      // started while another waited for these answers must not run on half of them.
      state.starting ??= Promise.all([get('/v1/whoami'), get('/v1/spaces')])
        .then(([me, spaces]) => { state.me = me; state.spaces = spaces; state.space = chosenSpace(spaces); })
        .then(claimSession)
        .finally(() => { state.starting = null; });
      await state.starting;
      if (!state.space) {
        mount(main, h('p', {}, 'This node holds no space yet: create one with `caddie space create NAME`.'));
        return;
      }
      setStatus();
      // The address changed while this route waited for the node: the route started by that change draws.
      if (window.location.hash !== hash) return;
    }
    // Guidance watches the position only while its screen is shown: no GPS drain behind the card.
    if (parts[0] !== 'guide') guideScreen?.stopGuide();
    if (parts[0] === 'game' && parts[1]) {
      if (parts[2] === 'log') return await (await reports()).showLog(reportApp(), parts[1]);
      if (parts[2] === 'standings') return await (await reports()).showStandings(reportApp(), parts[1]);
      return await showCard(parts[1]);
    }
    if (parts[0] === 'checkin' || parts[0] === 'sync' || parts[0] === 'invite') {
      devicesScreen ??= await import('./devices-screen.js');
      const app = { state, main, nav, base, problem, say, send, signOne, partner, signOut, deviceWaits };
      if (parts[0] === 'checkin' && parts[1]) return await devicesScreen.checkInScreen(app, parts[1]);
      if (parts[0] === 'sync') return await devicesScreen.devices(app);
      if (parts[0] === 'invite') return await devicesScreen.invite(app);
    }
    if (parts[0] === 'player' && parts[1]) return await (await reports()).showStats(reportApp(), parts[1]);
    if (parts[0] === 'guide') {
      guideScreen ??= await import('./guide-screen.js');
      return await guideScreen.showGuide({ main, nav, state, base, loadCard, myPlayer, problem });
    }
    if (parts[0] === 'new') {
      newGameScreen ??= await import('./new-game-screen.js');
      return await newGameScreen.showNewGame({ state, main, nav, base, problem, say, send, signOne, formats });
    }
    return await showGames();
  } catch (error) {
    mount(main, problem(error), h('p', {}, h('a', { href: '#/games' }, 'Back to the games')));
  } finally {
    setStatus();
    // A new screen opens at its top, not at the scroll offset of the screen before; the same screen drawn again
    // (a live update, the stream reopening) stays where the person is.
    if (state.shownHash !== window.location.hash) {
      state.shownHash = window.location.hash;
      window.scrollTo({ top: 0 });
    }
  }
}

/** The screens, the same on every screen: a bar at the thumb's reach on a phone, a strip of tabs on a wider screen.
 * `current` names the screen shown (new game counts as Games, an invite as Devices, a player's statistics as
 * Standings). The game screens open the last game opened here, else the game in progress. */
function nav(current) {
  const game = state.lastGame ?? 'current';
  const screens = [['games', '#/games', 'Games'], ['card', `#/game/${game}`, 'Card'],
    ['standings', `#/game/${game}/standings`, 'Standings'], ['guide', '#/guide', 'Guide'],
    ['log', `#/game/${game}/log`, 'Log'], ['devices', '#/sync', 'Devices']];
  return h('nav', { class: 'tabs', 'aria-label': 'Screens' },
    screens.map(([key, href, label]) => h('a', { href, 'aria-current': key === current ? 'page' : null,
      'aria-label': key === 'log' ? 'Audit log' : null }, label)));
}

// MARK: Games

/** The formats a game can play, as the node lists them (`GET /v1/formats`): fetched once. */
let formatList = null;
async function formats() {
  formatList = formatList ?? await get('/v1/formats');
  return formatList;
}

/** The space shown: the one last chosen on this phone (kept in its storage), else the node's first. */
function chosenSpace(spaces) {
  let kept = null;
  try { kept = window.localStorage.getItem('caddie.space'); } catch { /* no storage: the first space */ }
  return spaces.find((s) => s.space === kept) ?? spaces[0] ?? null;
}

/** Shows another space of the node: what was open of the one before is put away (its drafts stay kept on the
 * phone, its unsent entries in the outbox, each with its space), and the new one's games are shown. */
function chooseSpace(id) {
  const space = state.spaces.find((s) => s.space === id);
  if (!space || space.space === state.space?.space) return;
  try { window.localStorage.setItem('caddie.space', id); } catch { /* chosen for this page only */ }
  if (state.game) keepDrafts();
  Object.assign(state, { space, game: null, lastGame: null, card: null, setup: null, hole: null, saved: null,
    draft: new Map() });
  say(`${space.name}: its games.`);
  if (window.location.hash === '#/games') route(); else window.location.hash = '#/games';
}

/** The chooser of the node's spaces, when it holds two or more (a club's and a foursome's, say). */
function spaceChooser() {
  if (state.spaces.length < 2) return null;
  return h('div', { class: 'inline' },
    h('label', { for: 'space-choice' }, 'Space'),
    h('select', { id: 'space-choice', onchange: (event) => chooseSpace(event.target.value) },
      state.spaces.map((s) => h('option', { value: s.space, selected: s.space === state.space.space }, s.name))));
}

async function showGames() {
  state.game = null;
  // Spaces created or joined since the page opened are offered too.
  const [games, courses, spaces] = await Promise.all(
    [get(`${base()}/games`), get(`${base()}/courses`), get('/v1/spaces').catch(() => state.spaces)]);
  state.spaces = spaces;
  const names = new Map(courses.map((c) => [c.course, c.name]));
  mount(main,
    nav('games'),
    spaceChooser(),
    h('div', { class: 'title-row' }, h('h2', {}, `Games in ${state.space.name}`),
      h('a', { href: '#/new', class: 'button', id: 'new-game' }, 'New game')),
    games.length === 0
      ? h('p', {}, 'No game yet.', ' ', h('a', { href: '#/new' }, 'Start one'), '.')
      : h('ul', { class: 'list' }, games.map((game) => h('li', {},
        h('a', { href: `#/game/${game.game}`, class: 'row-link' },
          h('strong', {}, names.get(game.course) ?? 'Unknown course'),
          h('span', {}, ` · tee ${game.tee} · ${new Date(game.created).toLocaleDateString()} · `),
          h('span', { class: game.finished ? 'tag done' : 'tag live' }, game.finished ? 'finished' : 'in progress'))))));
}

// MARK: The card

let loads = 0;
let pushes = 0;

/** Fetches the card and shows it, unless a later fetch has been started meanwhile, or the node has pushed a card
 * of this game since (answers can arrive out of order: an older card must never replace a newer one). Returns the
 * card fetched, applied or not. */
async function loadCard(gameText) {
  const ticket = ++loads;
  const pushed = pushes;
  const game = gameText === 'current' ? (await get(`${base()}/games/current`)).game : gameText;
  const fetched = await get(`${base()}/games/${enc(game)}/card`);
  const drafts = state.game !== fetched.game ? await local.drafts(fetched.game).catch(() => []) : null;
  // Nothing is awaited from here on: a newer load that overtook this one is seen, and wins, in one step.
  if (ticket !== loads || (pushed !== pushes && fetched.game === state.game)) return fetched;
  state.card = fetched;
  state.landed = state.landed.filter((e) => e.game !== fetched.game || !card.showsOp(fetched, e.name));
  state.lastGame = fetched.game;
  if (state.game !== fetched.game) {
    state.game = fetched.game;
    state.draft = new Map(drafts ?? []);
    state.hole = firstOpenHole(fetched);
  }
  return fetched;
}

/** The first hole that some player has neither a score nor an entry on this phone for, else the last hole. */
function firstOpenHole(c) {
  const kept = outbox.ofGame(shownEntries(), state.space.space, c.game);
  for (let hole = 1; hole <= c.holes; hole += 1) {
    if (c.players.some((p) => card.strokes(p, hole) === null && !kept.has(`${p.player}:${hole}`))) return hole;
  }
  return card.currentHole(c);
}

/** Keeps the drafts of the open game on the phone, so a reload or a discarded tab keeps them. */
function keepDrafts() {
  local.writeDrafts(state.game, [...state.draft.entries()]).catch(() => {});
}

/** The games whose other screens this page has read since it opened (see keepScreens). */
const screensKept = new Set();

/** Reads a game's standings and audit log once the card is open, so that a dead zone later still shows them (the
 * answer of every read is kept on the phone; the standings' live events keep it fresh). Once a game per page. */
function keepScreens(game) {
  if (screensKept.has(game) || offline.since !== null) return;
  screensKept.add(game);
  get(`${base()}/games/${enc(game)}/standings`).catch(() => screensKept.delete(game));
  get(`${base()}/log?game=${enc(game)}`).catch(() => {});
  // The hole geometry to guide from while no node answers: kept on the phone, as every read is (api.js).
  get(`${base()}/games/${enc(game)}/guidance-pack`).catch(() => {});
}

async function showCard(gameText) {
  try {
    // A newer screen overtook this one: it draws itself.
    if (await loadCard(gameText) !== state.card) return;
    await loadSetup(state.card.game);
    keepScreens(state.card.game);
  } catch (error) {
    if (error.status === 404 && gameText === 'current') {
      return mount(main, nav('card'),
        h('p', {}, 'No game is in progress. ', h('a', { href: '#/new' }, 'Start one'), '.'));
    }
    throw error;
  }
  renderCard();
}

/** The game's setup (formats and hole choices) and the format list, for the choices a hole asks for, read each
 * time the card opens (another device may have changed them); a node that cannot be reached gives the copy this
 * phone kept, and without one the card is drawn without the choices. */
async function loadSetup(game) {
  try {
    await formats();
    await fetchSetup(game);
  } catch { /* the card is drawn without them */ }
}

/** Reads a game's setup into the state and says whether it was applied: answers can arrive out of order, and an
 * answer to an earlier read never replaces the answer to a later one (a choice just made must not be undone by a
 * read sent before it). */
let setupReads = 0;
let setupShown = 0;
async function fetchSetup(game) {
  const ticket = ++setupReads;
  const setup = await get(`${base()}/games/${enc(game)}`);
  if (ticket < setupShown) return false;
  setupShown = ticket;
  state.setup = setup;
  return true;
}

/** Takes a game's record that a live event carried: newer than any read still on its way, so those are dropped. */
function takeSetup(setup) {
  setupShown = ++setupReads;
  state.setup = setup;
  local.keep(`${base()}/games/${enc(setup.game)}`, setup);
  return true;
}

function parOf(hole) { return state.card.par[hole - 1] ?? null; }

function renderCard() {
  const c = state.card;
  const disputed = card.conflictKeys(c);
  mount(main,
    nav('card'),
    h('h2', {}, `${c.courseName ?? 'Course'} · tee ${c.tee}`, c.finished ? h('span', { class: 'tag done' }, ' finished') : null),
    disputesBanner(),
    h('div', { class: 'card-grid' },
      h('div', {}, holeView(disputed), refusedView()),
      tableView(disputed)),
    h('div', { id: 'panel' }),
    roundActions());
}

/** Every dispute of the open game in words, each with a button per value: "Dev, hole 2: 5 (Ana) or 7 (Ben)". */
function disputesBanner() {
  const c = state.card;
  if (!c.conflicts.length) return null;
  return h('section', { class: 'warning disputes', role: 'status', 'aria-label': 'Disputed scores' },
    h('p', {}, `⚠ ${c.conflicts.length} disputed score${c.conflicts.length > 1 ? 's' : ''}: choose the value the group agrees on.`),
    h('ul', { class: 'list' }, c.conflicts.map((conflict) => {
      const player = c.players.find((p) => p.player === conflict.player) ?? { player: conflict.player, name: conflict.name };
      const words = card.valueWords(conflict.values);
      return h('li', {},
        h('span', {}, `${conflict.name}, hole ${conflict.hole}: ${words.join(' or ')}`),
        h('div', { class: 'inline wrap' }, conflict.values.map((value, i) => h('button', { type: 'button', class: 'keep',
          // Named by the value's op, so a redraw that reorders the values gives focus back to the same one.
          id: `keep-${conflict.player}-${conflict.hole}-${value.op}`,
          onclick: () => settle(player, conflict.hole, value) }, `Keep ${words[i]}`))));
    })),
    h('div', { id: 'dispute-message', 'aria-live': 'assertive' }));
}

/** An entry or a value in words: its strokes, or "a pick-up". */
function entryWords(entry) {
  return entry.pickUp ? 'a pick-up' : `${entry.strokes}`;
}

/** Who leads: position, name, to par and holes played, from the card as the phone shows it. */
function leaderboard() {
  // Entries still on this phone count, marked provisional (•) until a node has them.
  const waiting = [...outbox.ofGame(shownEntries(), state.space.space, state.card.game).values()].filter((e) => !e.refused);
  const { card: shown, provisional } = card.withWaiting(state.card, waiting);
  const rows = card.leaderboard(shown);
  if (!rows.length) return null;
  const byName = new Map(shown.players.map((p) => [p.name, p.player]));
  return h('ol', { class: 'leaderboard', 'aria-label': 'Leaderboard' }, rows.map((row) => {
    const mark = provisional.has(byName.get(row.name));
    return h('li', { class: mark ? 'provisional' : null },
      h('span', { class: 'pos' }, `${row.position ?? '–'}`), ` ${row.name} `, h('strong', {}, row.toPar),
      h('span', { class: 'thru', 'aria-label': mark ? `thru ${row.thru}, counting entries not yet sent` : null },
        ` thru ${row.thru}${mark ? '•' : ''}`));
  }));
}

function holeView(disputed) {
  const c = state.card;
  const hole = state.hole;
  const par = parOf(hole);
  const kept = outbox.ofGame(shownEntries(), state.space.space, c.game);
  const choices = holeKinds(hole);
  const rows = c.players.map((player) => {
    const key = `${player.player}:${hole}`;
    const saved = card.cell(player, hole);
    if (player.locked) return lockedRow(player, hole, saved);
    const draft = state.draft.get(`${hole}:${player.player}`);
    const waiting = kept.get(key);
    // What the cell shows: the draft being typed, else the entry this phone keeps, else the node's value.
    const shown = draft ?? waiting ?? null;
    // A pick-up (the player did not hole out) has no strokes: the cell shows P.
    const pickedUp = shown ? shown.pickUp === true : saved?.pickUp === true;
    const value = pickedUp ? null : shown?.strokes ?? saved?.strokes ?? null;
    const putts = shown ? shown.putts ?? null : saved?.winner?.putts ?? null;
    const fairway = shown ? shown.fairway ?? null : saved?.winner?.fairway ?? null;
    const gir = shown ? shown.gir ?? null : saved?.winner?.gir ?? null;
    // Every control keeps what the others hold: a draft is the whole cell as it will be saved, and what the cell
    // showed when the draft began, so a value another phone saves meanwhile is never silently replaced.
    const setDraft = (patch) => {
      state.draft.set(`${hole}:${player.player}`,
        { strokes: pickedUp ? null : value ?? par ?? 4, pickUp: pickedUp, putts, fairway, gir,
          seen: draft?.seen ?? card.seenOf(saved), ...patch });
      keepDrafts();
    };
    const late = card.meanwhile(draft, saved, mine);
    const change = (delta) => {
      setDraft({ strokes: card.stepStrokes(value, delta, par), pickUp: false });
      renderCard();
      document.getElementById(`s-${player.player}`)?.focus();
    };
    // A putts choice with no strokes yet starts the strokes at par (at least the putts): par with two putts is
    // one tap. The chosen count again clears the putts.
    const choosePutts = (count) => {
      // The last choice counts on past three (a four-putt), then clears.
      const next = count === 3 && putts !== null && putts >= 3 ? (putts >= 10 ? null : putts + 1) : putts === count ? null : count;
      setDraft({ putts: next, strokes: value ?? Math.max(par ?? 4, next ?? 0), pickUp: false });
      renderCard();
      document.getElementById(`p-${player.player}-${count}`)?.focus();
    };
    // A pick-up: no strokes, putts or statistics; unticking it starts the strokes at par again.
    const pickUp = (on) => {
      setDraft(on ? { pickUp: true, strokes: null, putts: null, fairway: null, gir: null } : { pickUp: false, strokes: par ?? 4 });
      renderCard();
      document.getElementById(`pu-${player.player}`)?.focus();
    };
    const open = state.more.has(player.player) || fairway !== null || gir !== null || pickedUp;
    const fairwayChoices = [['', 'not recorded'], ['hit', 'hit'], ['left', 'missed left'], ['right', 'missed right']];
    const total = card.total(player, 1, c.holes);
    return h('li', { class: 'player' },
      h('div', { class: 'who' }, h('strong', {}, player.name),
        choices ? null : h('span', { class: 'running' }, total === null ? '' : total === 'NR' ? ' NR'
          : ` ${total} (${card.toPar(c, player) ?? '–'})`),
        choiceChips(choices, player),
        disputed.has(key) ? h('button', { type: 'button', class: 'dispute', onclick: () => showConflict(player, hole) },
          '⚠ Disputed: settle') : null,
        late.length ? h('span', { class: 'tag late', id: `late-${player.player}`, role: 'status' },
          `⚠ ${late.map((v) => `${v.author} entered ${entryWords(v)}`).join(', ')} meanwhile: saving yours makes a dispute`)
          // With the side-game chips in the row there is no room for words: a mark that says the same to a reader.
          : draft ? (choices ? h('span', { class: 'mark', role: 'img', 'aria-label': 'not saved', title: 'not saved' }, '✎')
            : h('span', { class: 'tag' }, 'not saved'))
          : waiting?.refused ? h('span', { class: 'tag refused' }, 'refused, kept on this phone')
            : waiting ? (choices ? h('span', { class: 'mark pending', role: 'img', 'aria-label': 'on this phone', title: 'on this phone' }, '•')
              : h('span', { class: 'tag pending' }, 'on this phone')) : null,
        late.length ? h('button', { type: 'button', class: 'take', id: `take-${player.player}`, onclick: () => {
          state.draft.delete(`${hole}:${player.player}`);
          keepDrafts();
          renderCard();
          say(`${player.name}: your entry dropped, ${entryWords(late[late.length - 1])} kept.`);
        } }, late.length === 1 ? `Use ${late[0].author}'s ${entryWords(late[0])}` : 'Drop mine') : null,
        h('button', { type: 'button', class: 'more', id: `more-${player.player}`, 'aria-expanded': open ? 'true' : 'false',
          'aria-label': `Fairway, green and pick-up for ${player.name}`, onclick: () => {
            if (state.more.has(player.player)) state.more.delete(player.player); else state.more.add(player.player);
            renderCard();
            document.getElementById(`more-${player.player}`)?.focus();
          } }, open ? 'Less' : 'More')),
      h('div', { class: 'line' },
      h('div', { class: 'stepper', role: 'group', 'aria-label': `${player.name}, strokes on hole ${hole}` },
        h('button', { type: 'button', class: 'big', id: `minus-${player.player}`, onclick: () => change(-1), 'aria-label': `One stroke fewer for ${player.name}` }, '−'),
        h('output', { id: `s-${player.player}`, tabindex: '0', class: 'strokes',
          'aria-label': `${player.name}: ${pickedUp ? 'picked up' : value ?? 'no score'}` },
          pickedUp ? card.PICK_UP : value ?? '–'),
        h('button', { type: 'button', class: 'big', id: `plus-${player.player}`, onclick: () => change(1), 'aria-label': `One stroke more for ${player.name}` }, '+')),
      h('div', { class: 'putts', role: 'group', 'aria-label': `${player.name}, putts` },
        [0, 1, 2, 3].map((count) => {
          const on = count === 3 ? putts !== null && putts >= 3 : putts === count;
          const shown = count === 3 && on ? putts : count;
          return h('button', { type: 'button', class: on ? 'chip on' : 'chip', id: `p-${player.player}-${count}`,
            'aria-pressed': on ? 'true' : 'false', 'aria-label': `${shown} putt${shown === 1 ? '' : 's'} for ${player.name}`,
            onclick: () => choosePutts(count) }, `${shown}`);
        }))),
      !open ? null : h('div', { class: 'putts extras' },
        // A fairway is recorded on par 4s and 5s only (statistics count it there).
        par === null || par > 3 ? [h('label', { for: `fw-${player.player}` }, 'Fairway'),
          h('select', { id: `fw-${player.player}`, onchange: (event) => { setDraft({ fairway: event.target.value || null, pickUp: false }); renderCard(); } },
            fairwayChoices.map(([v, label]) => h('option', { value: v, selected: (fairway ?? '') === v }, label)))] : null,
        h('div', { class: 'check' },
          h('input', { type: 'checkbox', id: `gir-${player.player}`, checked: gir === true,
            onchange: (event) => { setDraft({ gir: event.target.checked, pickUp: false }); renderCard(); } }),
          h('label', { for: `gir-${player.player}` }, 'Green in regulation')),
        h('div', { class: 'check' },
          h('input', { type: 'checkbox', id: `pu-${player.player}`, checked: pickedUp,
            onchange: (event) => pickUp(event.target.checked) }),
          h('label', { for: `pu-${player.player}` }, 'Picked up (no score)'))));
  });
  const go = (to) => { state.hole = to; state.saved = null; renderCard(); };
  const typed = [...state.draft.keys()].filter((k) => k.startsWith(`${hole}:`)).length;
  const section = h('section', { class: 'hole-view', 'aria-label': `Hole ${hole}` },
    leaderboard(),
    h('div', { class: 'hole-head' },
      h('button', { type: 'button', id: 'prev-hole', onclick: () => go(Math.max(1, hole - 1)), disabled: hole <= 1, 'aria-label': 'Previous hole' }, '‹'),
      h('h3', { id: 'hole-title' }, `Hole ${hole}`, par ? h('span', { class: 'par' }, ` · Par ${par}`) : null),
      h('button', { type: 'button', id: 'next-hole', onclick: () => go(Math.min(state.card.holes, hole + 1)), disabled: hole >= state.card.holes,
        'aria-label': 'Next hole' }, '›')),
    h('ul', { class: 'players' }, rows),
    holeChoices(hole, choices),
    // The save bar stays at the bottom of the screen: all four players and "Save" without scrolling.
    h('div', { class: 'savebar' },
      h('div', { id: 'save-message', class: 'saved', 'aria-live': 'assertive' }, state.saved ?? ''),
      h('button', { type: 'button', class: 'primary', id: 'save-hole', onclick: saveHole, disabled: typed === 0 || state.card.finished },
        `Save hole ${hole}`)));
  let startX = null;
  section.addEventListener('touchstart', (event) => { startX = event.touches[0].clientX; }, { passive: true });
  section.addEventListener('touchend', (event) => {
    if (startX === null) return;
    const dx = event.changedTouches[0].clientX - startX;
    startX = null;
    if (Math.abs(dx) > 60) go(Math.min(state.card.holes, Math.max(1, hole + (dx < 0 ? 1 : -1))));
  });
  return section;
}

/** A competition card signed by player and marker: no controls, who signed, what it refused after. */
function lockedRow(player, hole, saved) {
  const c = state.card;
  const total = card.total(player, 1, c.holes);
  const shown = saved?.pickUp ? 'picked up' : saved?.strokes ? `${saved.strokes} strokes` : 'no score';
  const refused = player.locked.refused;
  return h('li', { class: 'player locked', id: `locked-${player.player}` },
    h('div', { class: 'who' }, h('strong', {}, player.name),
      h('span', { class: 'running' }, total === null ? '' : total === 'NR' ? ' NR' : ` ${total} (${card.toPar(c, player) ?? '–'})`),
      h('span', { class: 'tag done' }, 'Card signed')),
    h('p', { class: 'hint' }, `Hole ${hole}: ${shown}. Signed by ${player.locked.signedBy.join(' and ')}, so only the `
      + 'committee can change this card now.'),
    refused.length ? h('p', { class: 'tag refused' }, 'Not counted, entered after the signatures: '
      + refused.map((r) => `hole ${r.hole}, ${r.pickedUp ? 'a pick-up' : r.strokes} by ${r.author}`).join('; ')) : null);
}

/** The choices the game's formats ask for on a hole (the Wolf's partner, Bingo Bango Bongo's points): the kinds,
 * the hole's Wolf, what each is now (this phone's unsent choice over the node's) and `choose`, which makes one; null
 * when no format asks for any, or the game does not play the hole. */
function holeKinds(hole) {
  const c = state.card;
  const setup = state.setup?.game === c.game ? state.setup : null;
  const played = setup && formatList ? formatList.filter((f) => setup.formats.includes(f.name)) : [];
  const kinds = played.flatMap((f) => f.entries.map((kind) => ({ ...kind, format: f })));
  if (!kinds.length) return null;
  const count = c.holes;
  const position = ((hole - setup.startHole) % count + count) % count;
  // A hole the game does not play (the other nine of a 9-hole game) takes no choices.
  if (setup.holesPlayed && position >= setup.holesPlayed) return null;
  const waiting = outbox.choicesOf(state.pending, state.space.space, c.game);
  const valueOf = (key) => {
    const kept = waiting.get(`${hole}.${key}`);
    if (kept !== undefined) return kept ?? '';
    const entry = setup.entries.find((e) => e.hole === hole && e.key === key);
    return entry?.lone ? 'lone' : entry?.player ?? '';
  };
  const choose = async (key, value, focus) => {
    const message = document.getElementById('choice-message');
    const entry = { hole, key };
    if (value === 'lone') entry.lone = true; else if (value) entry.player = value;
    // A phone that is a device of its own signs its choice and keeps it like a score: it is its user's, and it
    // survives a dead zone. Else the node signs it as its owner (the owner's own browser).
    if (state.device?.spaces[state.space.space]) {
      try {
        await signChoice(c.game, hole, key, value || null);
      } catch (error) { return mount(message, problem(error)); }
      renderCard();
      document.getElementById(focus)?.focus();
      return send();
    }
    try {
      await patch(`${base()}/games/${enc(c.game)}`, { entries: [entry] });
      await fetchSetup(c.game);
      renderCard();
      document.getElementById(focus)?.focus();
    } catch (error) { mount(message, problem(error)); }
  };
  return { kinds, wolf: c.players[position % c.players.length], valueOf, choose };
}

const CHIP = { wolf: 'W', bingo: 'Bi', bango: 'Ba', bongo: 'Bo' };

/** A player's one-tap choices on the hole, in their row: "W" makes them the Wolf's partner ("Lone" on the Wolf's
 * own row: the Lone Wolf), "Bi", "Ba", "Bo" give them Bingo, Bango or Bongo. A tap on a chosen one clears it. */
function choiceChips(choices, player) {
  if (!choices || state.card.finished) return null;
  return h('span', { class: 'chips', role: 'group', 'aria-label': `Side-game choices for ${player.name}` },
    choices.kinds.flatMap((kind) => {
      const wolfKind = kind.key === 'wolf';
      const isWolf = wolfKind && choices.wolf.player === player.player;
      if (isWolf && !kind.allowsLone) return [];
      const target = isWolf ? 'lone' : player.player;
      const on = choices.valueOf(kind.key) === target;
      const id = `choice-${kind.key}-${isWolf ? 'lone' : player.player}`;
      const label = isWolf ? `${player.name} goes alone (Lone Wolf)`
        : wolfKind ? `${player.name} is ${choices.wolf.name}'s partner (Wolf)` : `${kind.key[0].toUpperCase()}${kind.key.slice(1)}: ${player.name}`;
      return [h('button', { type: 'button', class: on ? 'chip pick on' : 'chip pick', id, 'aria-pressed': on ? 'true' : 'false',
        'aria-label': label, title: kind.label, onclick: () => choices.choose(kind.key, on ? null : target, id) },
      isWolf ? 'Lone' : CHIP[kind.key] ?? kind.key.slice(0, 2))];
    }));
}

/** Below the players: who is the Wolf and what each chip means, where a one-ball side enters its score, and the
 * choices' messages. */
function holeChoices(hole, choices) {
  const c = state.card;
  const setup = state.setup?.game === c.game ? state.setup : null;
  const played = setup && formatList ? formatList.filter((f) => setup.formats.includes(f.name)) : [];
  // A side that plays one ball enters its one score on its first player's card (in the card's order).
  const oneBall = played.filter((f) => f.oneBall);
  let ballHint = null;
  if (oneBall.length) {
    const team = new Map(setup.teams.map((t) => [t.player, t.team]));
    const sides = team.size ? ['A', 'B'].map((side) => c.players.filter((p) => team.get(p.player) === side)) : [c.players];
    ballHint = h('p', { class: 'hint wide-row', id: 'one-ball' }, `${oneBall.map((f) => f.title).join(', ')}: one score a side, on `
      + sides.filter((side) => side.length).map((side) => `${side[0].name}'s card (${side.map((p) => p.name).join(' & ')})`)
        .join(' and '));
  }
  if (!choices) return ballHint ? h('section', { class: 'choices', 'aria-label': 'One ball a side' }, ballHint) : null;
  const legend = choices.kinds.map((kind) => (kind.key === 'wolf'
    ? `${choices.wolf.name} is the Wolf on hole ${hole}: W, the partner${kind.allowsLone ? ', or Lone' : ''}`
    : `${CHIP[kind.key] ?? kind.key}: ${kind.key[0].toUpperCase()}${kind.key.slice(1)}, ${kind.label}`));
  return h('section', { class: 'choices', 'aria-label': `Choices on hole ${hole}` },
    h('p', { class: 'hint wide-row', id: 'choice-legend' }, legend.join(' · ')),
    ballHint,
    h('div', { id: 'choice-message', class: 'wide-row', 'aria-live': 'assertive' }));
}

/** Saves the open hole's drafts on the phone first (the outbox, one IndexedDB transaction: done, the entries are
 * "on this phone"), signed by the phone's own device where it is one, then sends them to the node when one answers.
 * Each entry names the cell's values as this phone saw them, so a value another device entered meanwhile ends in a
 * dispute, never under a late entry. */
async function saveHole() {
  const tapped = performance.now();
  const hole = state.hole;
  const message = document.getElementById('save-message');
  const game = state.game;
  const space = state.space.space;
  const signs = Boolean(state.device?.spaces[space]);
  const { entries: drafts, left, disputes } = card.holeDrafts(state.card, state.draft, hole, mine);
  try {
    if (signs) {
      await signScores(space, game, drafts, left);
    } else {
      const now = Date.now();
      let entries = state.pending;
      for (const { player, entry, seen } of drafts) {
        entries = outbox.queue(entries, { space, game, player, hole, ...entry,
          seen: [...seen, ...landedOf(space, game, player, hole)] }, now);
      }
      await local.commit(game, left, entries, drafts.map(({ player }) => outbox.cellKey({ space, game, player, hole })));
      state.pending = entries;
    }
  } catch (error) {
    const what = signs ? 'sign and keep' : 'keep';
    mount(message, problem(new Error(`this phone could not ${what} the entries (${error.message}): they are still typed above`)));
    return;
  }
  state.draft = new Map(left);
  kept(hole, space, game, tapped, disputes);
}

/** After a hole was kept on the phone: the figure, the next hole when this one is complete, and the sending. */
function kept(hole, space, game, tapped, disputes = 0) {
  window.caddieSavedMs = performance.now() - tapped;
  const onPhone = outbox.ofGame(shownEntries(), space, game);
  const c = state.card;
  if (state.hole === hole && hole < c.holes
      && c.players.every((p) => card.strokes(p, hole) !== null || onPhone.has(`${p.player}:${hole}`))) {
    state.hole = hole + 1;
  }
  state.saved = `✓ Hole ${hole} saved on this phone${state.hole !== hole ? `: now hole ${state.hole}` : ''}.`
    + (disputes ? ` ${disputes === 1 ? 'One entry' : `${disputes} entries`} stand beside a value entered meanwhile: `
      + 'settle the dispute.' : '');
  renderCard();
  setStatus();
  say(`Hole ${hole} kept on this phone.`);
  window.scrollTo({ top: 0 });
  send();
}

function onCardScreen() {
  const parts = window.location.hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  return parts[0] === 'game' && parts.length === 2 && state.card !== null;
}

/** The entries this phone keeps for the open game that a node refused: listed with the reason, never dropped
 * silently; a person may enter the hole again (it is sent again) or discard the entry. */
function refusedView() {
  const refused = state.pending.filter((e) => e.refused && e.game === state.game);
  if (!refused.length) return null;
  const nameOf = (id) => state.card.players.find((p) => p.player === id)?.name ?? String(id).slice(0, 8);
  const what = (e) => (e.kind === 'choice' ? `${e.choiceKey} on hole ${e.hole}: ${e.choice === 'lone' ? 'alone'
    : e.choice ? nameOf(e.choice) : 'cleared'}` : e.kind === 'attest' ? `the attestation of ${nameOf(e.player)}'s card`
    : e.kind === 'finish' ? (e.choice ? 'finishing the game' : 'reopening the game')
    : e.kind === 'game' ? 'the new game' : e.kind === 'player' ? 'a new player'
    : `${nameOf(e.player)}, hole ${e.hole}: ${entryWords(e)}`);
  return h('section', { class: 'panel', 'aria-label': 'Entries the node refused' },
    h('h3', {}, `${refused.length} ${refused.length === 1 ? 'entry' : 'entries'} refused, kept on this phone`),
    h('ul', { class: 'list' }, refused.map((e) => h('li', {},
      h('p', {}, h('strong', {}, what(e)), ` — ${e.refused}`),
      h('button', { type: 'button', onclick: async () => {
        await local.discard(e.key);
        state.pending = await local.outbox();
        renderCard();
        setStatus();
      } }, outbox.isScore(e) ? `Discard ${nameOf(e.player)}'s ${entryWords(e)} on hole ${e.hole}` : `Discard ${what(e)}`)))));
}

function tableView(disputed) {
  const c = state.card;
  const holes = Array.from({ length: c.holes }, (_, i) => i + 1);
  const front = holes.filter((n) => n <= 9);
  const back = holes.filter((n) => n > 9);
  const headCells = [h('th', { scope: 'col' }, 'Player')];
  const parCells = [h('th', { scope: 'row' }, 'Par')];
  const parSum = (list) => list.reduce((sum, n) => sum + (parOf(n) ?? 0), 0) || '';
  for (const n of front) { headCells.push(h('th', { scope: 'col' }, n)); parCells.push(h('td', {}, parOf(n) ?? '')); }
  headCells.push(h('th', { scope: 'col' }, 'Out')); parCells.push(h('td', {}, parSum(front)));
  if (back.length) {
    for (const n of back) { headCells.push(h('th', { scope: 'col' }, n)); parCells.push(h('td', {}, parOf(n) ?? '')); }
    headCells.push(h('th', { scope: 'col' }, 'In')); parCells.push(h('td', {}, parSum(back)));
  }
  headCells.push(h('th', { scope: 'col' }, 'Total'), h('th', { scope: 'col' }, 'To par'), h('th', { scope: 'col' }, 'Hcp'),
    h('th', { scope: 'col' }, 'Net'), h('th', { scope: 'col' }, 'Pts'));
  parCells.push(h('td', {}, parSum(holes)), h('td'), h('td'), h('td'), h('td'));
  const kept = outbox.ofGame(shownEntries(), state.space.space, c.game);
  const rows = c.players.map((player) => {
    const cells = [h('th', { scope: 'row' }, player.name)];
    const cellFor = (n) => {
      const value = card.strokes(player, n);
      const key = `${player.player}:${n}`;
      const waiting = kept.get(key);
      if (waiting) {
        const mark = waiting.pickUp ? card.PICK_UP : waiting.strokes;
        return h('td', { class: 'pending' }, h('span', { 'aria-label': `${player.name} hole ${n}: ${entryWords(waiting)}, on this phone, not yet sent` },
          `${mark}•`));
      }
      if (disputed.has(key)) {
        return h('td', { class: 'disputed' }, h('button', { type: 'button', class: 'link', onclick: () => showConflict(player, n),
          'aria-label': `${player.name} hole ${n}: ${value}, disputed. Settle` }, `${value}⚠`));
      }
      return h('td', {}, value === null ? '' : h('button', { type: 'button', class: 'link', onclick: () => showHistory(player, n),
        'aria-label': `${player.name} hole ${n}: ${value}. History` }, value));
    };
    for (const n of front) cells.push(cellFor(n));
    cells.push(h('td', { class: 'sum' }, card.total(player, 1, Math.min(9, c.holes)) ?? ''));
    if (back.length) {
      for (const n of back) cells.push(cellFor(n));
      cells.push(h('td', { class: 'sum' }, card.total(player, 10, c.holes) ?? ''));
    }
    cells.push(h('td', { class: 'sum' }, card.total(player, 1, c.holes) ?? ''), h('td', {}, card.toPar(c, player) ?? ''),
      h('td', {}, player.handicap?.playingHandicap ?? ''),
      h('td', {}, player.handicap ? (player.noReturn ? 'NR' : player.handicap.netTotal) : ''),
      h('td', {}, card.points(player) ?? ''));
    return h('tr', {}, cells);
  });
  return h('section', { class: 'table-view', 'aria-label': 'The whole card' },
    h('div', { class: 'scroll' }, h('table', {}, h('caption', {}, 'Scorecard (Hcp: playing handicap at 95%; Pts: Stableford)'),
      h('thead', {}, h('tr', {}, headCells), h('tr', { class: 'par-row' }, parCells)), h('tbody', {}, rows))));
}

/** The player this phone is on a card: its own user's once it is a device of its own (the player linked to that
 * user key, else the one with its name), else the node's user's. Null when none is. */
function myPlayer(c) {
  const own = state.device?.spaces[state.space.space] ? state.device : null;
  const who = own ?? { name: state.me?.name, user: state.me?.user };
  return c.players.find((p) => p.user && p.user === who.user) ?? c.players.find((p) => p.name === who.name) ?? null;
}

function roundActions() {
  const c = state.card;
  const space = state.space.space;
  // A phone that is a device of its own attests as its own user, signed here. A partner's phone that is not a
  // device yet attests nothing (the node would sign it as its owner): not offered.
  if (partner() && !state.device?.spaces[space]) return null;
  const me = myPlayer(c);
  const marks = new Map((c.markers ?? []).map((m) => [m.player, m.marker]));
  const nameOf = (id) => c.players.find((p) => p.player === id)?.name ?? 'someone';
  // With markers set, this user attests the cards they mark; without, any other player's.
  const mine = marks.size && me ? c.players.filter((p) => marks.get(p.player) === me.player || (c.competition && p === me))
    : c.players.filter((p) => p !== me);
  // A phone of its own asks whether its own user signed (a competition card takes two); a browser, whether anyone did.
  const signer = state.device?.spaces[space] ? state.device.user : null;
  const attested = new Set(c.attestations.filter((a) => a.current && (signer === null || a.user === signer)).map((a) => a.player));
  const waiting = outbox.attestedOf(state.pending, space, c.game);
  const disputed = new Set(c.conflicts.map((x) => x.player));
  return h('section', { class: 'actions', 'aria-label': 'Attest and finish' },
    h('h3', {}, 'Attest and finish'),
    h('p', { class: 'hint' }, 'Attest: as a player\'s marker, sign that their card is right as it stands now.'),
    marks.size ? h('p', { class: 'hint' }, c.players.filter((p) => marks.has(p.player))
      .map((p) => `${nameOf(marks.get(p.player))} marks ${p.name}`).join('; ') + '.') : null,
    h('div', { class: 'inline wrap' }, mine.map((p) => (attested.has(p.player)
      ? h('span', { class: 'tag done' }, `✓ ${p.name} attested`)
      : waiting.has(p.player) ? h('span', { class: 'tag pending' }, `✓ ${p.name} attested, on this phone`)
        : h('button', { type: 'button', disabled: disputed.has(p.player), title: disputed.has(p.player)
          ? 'settle the disputes on this card first' : null, onclick: () => attest(p) }, `Attest ${p.name}'s card`)))),
    h('p', { class: 'hint' }, c.competition ? 'The committee finishes the groups at the close.' : c.finished
      ? 'Reopen: allow scores again; the game leaves the handicap record until it is finished again.'
      : 'Finish: close the round; its scores count for everyone\'s Handicap Index.'),
    c.competition ? null : state.pending.some((e) => e.kind === 'finish' && e.game === c.game && !e.refused)
      ? h('p', { class: 'tag pending', id: 'finish-waiting' }, 'The finish or reopening is on this phone, not yet sent')
      : h('button', { type: 'button', id: 'finish', onclick: finishOrReopen }, c.finished ? 'Reopen the game' : 'Finish the game'),
    h('div', { id: 'action-message', 'aria-live': 'assertive' }));
}

async function attest(player) {
  const space = state.space.space;
  if (state.device?.spaces[space]) {
    // The card as this phone shows it must be the node's: entries still on the phone would change it.
    if (outbox.ofGame(shownEntries(), space, state.game).size) {
      return mount(document.getElementById('action-message'),
        problem(new Error('entries on this phone are not sent yet: attest once the node has them')));
    }
    try {
      await signAttest(player);
    } catch (error) { return mount(document.getElementById('action-message'), problem(error)); }
    renderCard();
    say(`${player.name}'s card attested on this phone.`);
    return send();
  }
  try {
    await post(`${base()}/games/${enc(state.game)}/attestations`, { player: player.player });
    await loadCard(state.game);
    renderCard();
    say(`${player.name}'s card attested.`);
  } catch (error) { mount(document.getElementById('action-message'), problem(error)); }
}

/** Finish asks first (a finished game takes no more scores and enters everyone's handicap record); reopen does not. */
function finishOrReopen() {
  if (state.card.finished) return finishNow();
  const message = document.getElementById('action-message');
  mount(message, h('div', { class: 'confirm', role: 'alertdialog', 'aria-labelledby': 'finish-ask' },
    h('p', { id: 'finish-ask' }, 'Finish the game? No more scores can be entered until it is reopened, and it counts for '
      + 'everyone\'s handicap.'),
    h('div', { class: 'inline wrap' },
      h('button', { type: 'button', class: 'primary', id: 'finish-confirm', onclick: finishNow }, 'Yes, finish it'),
      h('button', { type: 'button', id: 'finish-cancel', onclick: () => { mount(message); document.getElementById('finish')?.focus(); } },
        'Not yet'))));
  document.getElementById('finish-confirm').focus();
}

async function finishNow() {
  const space = state.space.space;
  const finished = !state.card.finished;
  if (state.device?.spaces[space]) {
    // Signed by this phone's own device, kept like an entry: the audit names its user for the finish.
    try {
      await signOne(ops.setPayload('game', state.game, [['finished', { integer: finished ? 1 : 0 }]]),
        { kind: 'finish', game: state.game, choice: finished });
    } catch (error) { return mount(document.getElementById('action-message'), problem(error)); }
    say(finished ? 'Finishing the game, signed on this phone.' : 'Reopening the game, signed on this phone.');
    await send();
    return renderCard();
  }
  try {
    await post(`${base()}/games/${enc(state.game)}/${state.card.finished ? 'reopen' : 'finish'}`);
    await loadCard(state.game);
    renderCard();
    say(state.card.finished ? 'The game is finished.' : 'The game is open again.');
  } catch (error) { mount(document.getElementById('action-message'), problem(error)); }
}

function showConflict(player, hole) {
  const conflict = state.card.conflicts.find((c) => c.player === player.player && c.hole === hole);
  if (!conflict) return showHistory(player, hole);
  const panel = document.getElementById('panel');
  mount(panel, h('section', { class: 'panel', role: 'dialog', 'aria-labelledby': 'panel-title' },
    h('h3', { id: 'panel-title', tabindex: '-1' }, `${player.name}, hole ${hole}: disputed`),
    h('p', {}, 'These values were entered on different devices without seeing each other. Choose the one the group agrees on.'),
    h('ul', { class: 'list' }, conflict.values.map((value, i) => h('li', {},
      h('p', {}, value.pickUp ? h('strong', {}, 'Picked up') : [h('strong', {}, `${value.strokes}`), ` stroke${value.strokes === 1 ? '' : 's'}`],
        value.putts !== null ? `, ${value.putts} putts` : '', ` — by ${value.author} at ${card.clock(value.hlc)}, ${card.opLabel(value.op)}`),
      h('button', { type: 'button', class: 'primary', onclick: () => settle(player, hole, value) },
        `Keep ${card.valueWords(conflict.values)[i]}`)))),
    h('button', { type: 'button', onclick: () => showHistory(player, hole) }, 'Full history'),
    h('button', { type: 'button', onclick: () => mount(panel) }, 'Close'),
    h('div', { id: 'panel-message', 'aria-live': 'assertive' })));
  document.getElementById('panel-title').focus();
}

/** Draws again the screen a dispute was settled from: the standings or the card. */
function redraw() {
  if (window.location.hash.endsWith('/standings') && state.standings) {
    return reports().then((screens) => screens.showStandings(reportApp(), state.standings));
  }
  return renderCard();
}

/** Where a settling error is shown: the open dispute panel, else the banner. */
function settleMessage() {
  return document.getElementById('panel-message') ?? document.getElementById('dispute-message');
}

async function settle(player, hole, value) {
  const space = state.space.space;
  if (state.device?.spaces[space]) {
    const conflict = state.card.conflicts.find((c) => c.player === player.player && c.hole === hole);
    try {
      const entry = value.pickUp ? { pickUp: true }
        : { strokes: value.strokes, putts: value.putts, fairway: value.fairway, gir: value.gir };
      await signScores(space, state.game, [{ player: player.player, hole, entry,
        seen: (conflict ? conflict.values : [value]).map((v) => v.op) }], null);
    } catch (error) { return mount(settleMessage(), problem(error)); }
    say(`${player.name}'s hole ${hole} settled at ${entryWords(value)} on this phone.`);
    setStatus();
    await send();
    return redraw();
  }
  try {
    await post(`${base()}/games/${enc(state.game)}/scores`, value.pickUp ? { player: player.player, hole, pickUp: true }
      : { player: player.player, hole, strokes: value.strokes, ...(value.putts !== null ? { putts: value.putts } : {}) });
    await loadCard(state.game);
    await redraw();
    say(`${player.name}'s hole ${hole} settled at ${entryWords(value)}.`);
  } catch (error) { mount(settleMessage(), problem(error)); }
}

async function showHistory(player, hole) {
  const panel = document.getElementById('panel');
  try {
    const entries = await get(`${base()}/games/${enc(state.game)}/history?player=${enc(player.player)}&hole=${hole}`);
    mount(panel, h('section', { class: 'panel', role: 'dialog', 'aria-labelledby': 'panel-title' },
      h('h3', { id: 'panel-title', tabindex: '-1' }, `${player.name}, hole ${hole}: history`),
      h('ol', { class: 'list' }, entries.map((entry) => h('li', {},
        `${entryWords(entry)} by ${entry.author} at ${card.clock(entry.time)} (${card.opLabel(entry.op)})`,
        entry.standing ? h('span', { class: 'tag live' }, ' standing') : h('span', { class: 'tag' }, ' replaced')))),
      h('button', { type: 'button', onclick: () => mount(panel) }, 'Close')));
    document.getElementById('panel-title').focus();
  } catch (error) { mount(panel, problem(error)); }
}

// MARK: Partner sessions

/** Whether this browser is signed in as a partner's phone (GET /v1/whoami's `kind`), not as the node's owner. */
function partner() {
  return state.me?.kind === 'partner';
}

/** A partner's session not yet bound to a device: its id, for the device to sign. */
function sessionToClaim() {
  return partner() && !state.me.device ? state.me.session : null;
}

/** A partner's new session on a phone that is a device already (signed in again): the device claims it at once, by
 * the same admission its join had, so the session is that user's from the first screen. */
async function claimSession() {
  const record = await device.me();
  if (record && !state.device) state.device = record;
  if (!sessionToClaim() || !record || !state.space || !record.spaces[state.space.space]) return;
  try {
    await post(`${base()}/admissions`, await device.admission(record, state.me.session));
    state.me = await get('/v1/whoami');
  } catch (error) {
    say(`This phone could not claim its session: ${error.message ?? error}`);
  }
}

async function signOut() {
  await fetch('/signout', { method: 'POST', credentials: 'same-origin' });
  window.location.assign('/');
}

// MARK: Guidance

/** The Guide screen (guide-screen.js), loaded when it first opens; the service worker keeps it. */
let guideScreen = null;

/** The Devices screen, the invites and a group's check-in (devices-screen.js), loaded when one first opens. */
let devicesScreen = null;

/** The new-game screen (new-game-screen.js), loaded when it first opens. */
let newGameScreen = null;

/** The standings, a player's statistics and the audit log (report-screens.js), loaded when one first opens. */
let reportScreens = null;
async function reports() {
  reportScreens ??= await import('./report-screens.js');
  return reportScreens;
}

/** What app.js gives the report screens: its state, the page's main element, and the card's parts they show. */
function reportApp() {
  return { state, main, nav, base, loadCard, disputesBanner };
}

// MARK: Live events

/** Who waits for a phone of its user to answer a device code (waitForApproval): called with the device answered,
 * or null when the live stream opens again. */
const deviceWaits = new Set();

function onEvent(type, data) {
  if (type === 'device-request') [...deviceWaits].forEach((wake) => wake(data.device));
  // Another device's entry (a peer's, or another phone's on this node) is said; this phone's own is not.
  if (type === 'score' && data.origin !== 'local' && !mine(data.op)) say(`${data.name}: ${entryWords(data)} on hole ${data.hole}.`);
  if (type === 'conflict') say(`${data.name}'s hole ${data.hole} is disputed.`);
  if (type === 'standings' && data.space === state.space?.space && screensKept.has(data.game)) {
    // The copy a dead zone would show stays as fresh as the live one.
    local.keep(`/v1/spaces/${enc(data.space)}/games/${enc(data.game)}/standings`, data);
  }
  if (type === 'standings' && data.game === state.standings && data.space === state.space?.space) {
    // The event carries the standings whole (after the card event of the same change): drawn as they come (the
    // screen that shows them has loaded its module).
    reportScreens?.drawStandings(reportApp(), data.game, data);
    return;
  }
  if (type === 'card' && state.card && data.game === state.game && data.space === state.space?.space) {
    // The node sends the whole card after every change of it: the page draws it as it comes, asking for nothing.
    // A card request still on its way would be older than this: it is dropped (see loadCard).
    pushes += 1;
    state.card = data.card;
    if (state.landed.length) {
      state.landed = state.landed.filter((e) => e.game !== data.game || !card.showsOp(data.card, e.name));
      if (!state.landed.length) window.clearTimeout(state.landedTimer);
    }
    const parts = window.location.hash.replace(/^#\/?/, '').split('/').filter(Boolean);
    if (parts[0] === 'game' && parts.length === 2) {
      renderCard();
      // Another device may have made a hole's choice or changed the formats: the game's fields are read again, and
      // the card drawn again when what its choices show has changed (not while a choice is being made here).
      const shown = (setup) => JSON.stringify([setup?.formats, setup?.startHole, setup?.holesPlayed, setup?.entries]);
      const before = shown(state.setup);
      const redraw = (applied) => {
        if (!applied || state.card?.game !== state.setup?.game || shown(state.setup) === before) return;
        if (!document.activeElement?.closest?.('.choices')) renderCard();
      };
      // The event carries the game's record (a node of this version): no read. An older node's event does not.
      if (data.setup) redraw(takeSetup(data.setup));
      else fetchSetup(data.game).then(redraw).catch(() => {});
    }
  }
}

function start() {
  // The phone's device and outbox are read before the first screen, so the first save already signs here.
  const ready = Promise.all([local.device(), local.outbox()])
    .then(([record, entries]) => { state.device = record; state.pending = outbox.ordered(entries); })
    .catch(() => {});
  connect({ onEvent, onStatus: (link) => {
    const back = link === 'live' && state.link !== 'live';
    if (link === 'reconnecting' && (state.link === 'live' || state.link === 'connecting')) {
      // A blip (the stream reopening) is not news: say the node is out of reach only if it stays so for 2 s.
      state.linkTimer ??= window.setTimeout(() => {
        state.linkTimer = null;
        state.link = 'reconnecting';
        setStatus();
      }, 2000);
      return;
    }
    window.clearTimeout(state.linkTimer);
    state.linkTimer = null;
    state.link = link;
    setStatus();
    if (!back) return;
    state.opened += 1;
    // The node answers again: send what the phone kept, and show the screen as the node has it now.
    [...deviceWaits].forEach((wake) => wake(null));
    send();
    if (state.opened > 1) route();
  } });
  window.addEventListener('online', () => send());
  window.addEventListener('hashchange', route);
  ready.then(() => {
    setStatus();
    send();
    if (!window.location.hash) window.location.hash = '#/game/current';
    else route();
  });
  if ('serviceWorker' in navigator) navigator.serviceWorker.register('/sw.js').catch(() => {});
}

start();
