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
import { cardScreen } from './card-screen.js';
import { cardActions } from './card-actions.js';

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

/** The card's actions (card-actions.js) and the card screen (card-screen.js), over this page's state. */
const { disputesBanner, roundActions, showConflict, showHistory } = cardActions({
  state, base, problem, say, setStatus, send, signScores, signOne, signAttest, loadCard, shownEntries, partner,
  myPlayer, renderCard, redraw,
});
const cardView = cardScreen({
  state, main, nav, base, problem, say, setStatus, send, signScores, signChoice, landedOf, shownEntries, keepDrafts,
  mine, fetchSetup, formatsKnown: () => formatList, disputesBanner, roundActions, showConflict, showHistory,
});

/** Draws the open card again (the card screen's; sending, live events and the card's actions call it). */
function renderCard() {
  cardView.renderCard();
}

function onCardScreen() {
  const parts = window.location.hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  return parts[0] === 'game' && parts.length === 2 && state.card !== null;
}

/** The player this phone is on a card: its own user's once it is a device of its own (the player linked to that
 * user key, else the one with its name), else the node's user's. Null when none is. */
function myPlayer(c) {
  const own = state.device?.spaces[state.space.space] ? state.device : null;
  const who = own ?? { name: state.me?.name, user: state.me?.user };
  return c.players.find((p) => p.user && p.user === who.user) ?? c.players.find((p) => p.name === who.name) ?? null;
}

/** Draws again the screen a dispute was settled from: the standings or the card. */
function redraw() {
  if (window.location.hash.endsWith('/standings') && state.standings) {
    return reports().then((screens) => screens.showStandings(reportApp(), state.standings));
  }
  return renderCard();
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
  if (type === 'score' && data.origin !== 'local' && !mine(data.op)) say(`${data.name}: ${card.entryWords(data)} on hole ${data.hole}.`);
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
