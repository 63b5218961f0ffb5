// The new-game screen: a course found by name or nearby, its tee, the players and who marks them, a player added on
// the way, the side games; loaded when it first opens (app.js), kept by the service worker. A phone that is a device
// of its own signs the new game and a new player itself.

import { h, mount } from './render.js';
import { get, post, enc } from './api.js';
import * as ops from './ops.js';

/** The new-game screen. `kept` ({chosen, tee, inputs}) is what was chosen already (the course, the tee, every other
 * field by its id) when it is drawn again after a player was added. */
export async function showNewGame(app, kept = null) {
  // What app.js gives this screen: its state, the page's main element, and the parts of the card's flow it uses.
  const { state, main, nav, base, problem, say, send, signOne, formats } = app;
  const [players, FORMATS] = await Promise.all([get(`${base()}/players`), formats()]);
  const results = h('ul', { class: 'list', id: 'course-results', 'aria-live': 'polite' });
  const tee = h('select', { id: 'tee', name: 'tee', required: true }, h('option', { value: '' }, 'Choose a course first'));
  const message = h('div', { 'aria-live': 'assertive' });
  let chosen = null;

  async function choose(course) {
    chosen = course;
    const details = await get(`${base()}/courses/${enc(course.course)}`);
    mount(tee, details.tees.filter((t) => t.tee).map((t) => h('option', { value: t.tee }, `${t.tee}${t.par ? ` (par ${t.par})` : ''}`)));
    if (tee.options.length === 0) mount(tee, h('option', { value: '' }, 'This course has no tees'));
    mount(results, h('li', {}, `Course: ${course.name}`));
  }

  async function search(event) {
    event.preventDefault();
    const text = document.getElementById('course-q').value.trim();
    if (!text) return;
    try {
      const found = await get(`${base()}/courses/search?q=${enc(text)}&limit=8`);
      mount(results, found.length === 0 ? h('li', {}, 'No course matches.')
        : found.map((c) => h('li', {}, h('button', { type: 'button', class: 'choice', onclick: () => choose(c) }, c.name))));
    } catch (error) { mount(message, problem(error)); }
  }

  async function nearby() {
    if (!navigator.geolocation) return mount(message, problem(new Error('this browser gives no position')));
    navigator.geolocation.getCurrentPosition(async (position) => {
      try {
        const { latitude, longitude } = position.coords;
        const found = await get(`${base()}/courses/nearby?lat=${latitude.toFixed(6)}&lon=${longitude.toFixed(6)}&radiusKm=50`);
        mount(results, found.length === 0 ? h('li', {}, 'No course within 50 km.')
          : found.map((c) => h('li', {}, h('button', { type: 'button', class: 'choice', onclick: () => choose(c) },
            `${c.name} (${c.km.toFixed(1)} km)`))));
      } catch (error) { mount(message, problem(error)); }
    }, () => mount(message, problem(new Error('no position: allow location for this page, or search by name'))));
  }

  async function create(event) {
    event.preventDefault();
    const ids = players.filter((p) => document.getElementById(`p-${p.player}`).checked).map((p) => p.player);
    if (!chosen) return mount(message, problem(new Error('choose a course first')));
    const markers = ids.map((player) => ({ player, marker: document.getElementById(`m-${player}`).value }))
      .filter((pair) => pair.marker && ids.includes(pair.marker));
    const chosenFormats = FORMATS.map((f) => f.name).filter((name) => document.getElementById(`f-${name}`).checked);
    const sides = ['A', 'B'].map((side) => ids.filter((player) => document.getElementById(`t-${player}`).value === side));
    const stake = Number(document.getElementById('stake').value || 0);
    const body = { course: chosen.course, tee: tee.value, players: ids, markers };
    if (chosenFormats.length) body.formats = chosenFormats;
    if (chosenFormats.includes('skins')) body.skins = document.getElementById('skins').value;
    if (sides[0].length || sides[1].length) body.teams = sides;
    if (stake > 0) body.stake = stake;
    try {
      if (!state.device?.spaces[state.space.space]) {
        const game = await post(`${base()}/games`, body);
        window.location.hash = `#/game/${game.game}`;
        return;
      }
      // A phone that is a device of its own signs the new game itself: the node drafts it (its checks) under an id
      // the phone chose (so it knows the record is new), the phone checks the draft is the game asked for, signs it
      // and sends it like an entry.
      const game = ops.hex(crypto.getRandomValues(new Uint8Array(8)));
      const draft = await post(`${base()}/game-drafts`, { ...body, game });
      ops.checkGameDraft(draft.payload, { game, course: chosen.course, tee: tee.value, players: ids, markers,
        formats: body.formats ?? null, skins: body.skins ?? null, teams: body.teams ?? null, stake: body.stake ?? null });
      await signOne(ops.unhex(draft.payload), { kind: 'game', game });
      await send();
      const waiting = state.pending.find((e) => e.kind === 'game' && e.game === game);
      if (!waiting) window.location.hash = `#/game/${game}`;
      else if (waiting.refused) mount(message, problem(new Error(`the node refused the new game: ${waiting.refused}`)));
      else mount(message, h('p', { class: 'tag pending', id: 'game-waiting' }, 'The new game is signed and kept on this phone; '
        + 'it is sent when the node answers again.'));
    } catch (error) { mount(message, problem(error)); }
  }

  // Enter in the player's fields adds the player; it must not start the game (the form around them).
  function addOnEnter(event) {
    if (event.key === 'Enter') addPlayer(event);
  }

  async function addPlayer(event) {
    event.preventDefault();
    const name = document.getElementById('player-name').value.trim();
    const indexText = document.getElementById('player-index').value.trim();
    const index = indexText === '' ? null : Number(indexText);
    const mineToo = document.getElementById('player-me')?.checked ?? false;
    const said = document.getElementById('player-message');
    if (!name) return mount(said, problem(new Error('give the player\'s name')));
    if (index !== null && !Number.isFinite(index)) return mount(said, problem(new Error('a Handicap Index is a number, e.g. 12.4 (+2 as -2)')));
    try {
      const body = { name, ...(index !== null ? { index } : {}) };
      if (!state.device?.spaces[state.space.space]) {
        await post(`${base()}/players`, body);
      } else {
        // Signed by this phone's device, as a new game is: the audit names its user for the new player.
        if (mineToo) body.user = state.device.user;
        const player = ops.hex(crypto.getRandomValues(new Uint8Array(8)));
        const draft = await post(`${base()}/player-drafts`, { ...body, player });
        ops.checkPlayerDraft(draft.payload, { player, name, index, user: body.user ?? null });
        await signOne(ops.unhex(draft.payload), { kind: 'player', player });
        await send();
        const waiting = state.pending.find((e) => e.kind === 'player' && e.player === player);
        if (waiting?.refused) throw new Error(`the node refused the new player: ${waiting.refused}`);
        if (waiting) throw new Error('the new player is kept on this phone and is sent when the node answers again');
      }
      const inputs = [...main.querySelectorAll('form input[id], form select[id]')]
        .filter((e) => !['player-name', 'player-index', 'player-me', 'course-q'].includes(e.id))
        .map((e) => [e.id, e.type === 'checkbox' ? e.checked : e.value]);
      await showNewGame(app, { chosen, tee: tee.value, inputs });
      say(`${name} added.`);
      document.getElementById('player-name')?.focus();
    } catch (error) { mount(said, problem(error)); }
  }

  mount(main,
    nav('games'),
    h('h2', {}, 'New game'),
    h('form', { class: 'stack', onsubmit: search },
      h('label', { for: 'course-q' }, 'Course'),
      h('div', { class: 'inline' },
        h('input', { id: 'course-q', type: 'search', placeholder: 'Name, club or town' }),
        h('button', { type: 'submit' }, 'Search'),
        h('button', { type: 'button', onclick: nearby }, 'Nearby'))),
    results,
    h('form', { class: 'stack', onsubmit: create },
      h('label', { for: 'tee' }, 'Tee'), tee,
      h('fieldset', {}, h('legend', {}, 'Players and who marks them'),
        players.map((p, index) => h('div', { class: 'player-pick' },
          h('div', { class: 'check' },
            h('input', { type: 'checkbox', id: `p-${p.player}`, checked: true }),
            h('label', { for: `p-${p.player}` }, p.name)),
          h('select', { id: `m-${p.player}`, 'aria-label': `${p.name} is marked by` },
            h('option', { value: '' }, 'marked by: nobody said'),
            players.filter((m) => m.player !== p.player).map((m) => h('option', {
              value: m.player, selected: m.player === players[(index + 1) % players.length].player,
            }, `marked by ${m.name}`)))))),
      h('p', { class: 'hint' }, 'A marker keeps a player\'s score and attests their card at the end, from their own device.'),
      h('details', { id: 'add-player' }, h('summary', {}, 'Add a player'),
        h('div', { class: 'stack' },
          h('label', { for: 'player-name' }, 'Name'),
          h('input', { id: 'player-name', maxlength: 64, autocomplete: 'off', onkeydown: addOnEnter }),
          h('label', { for: 'player-index' }, 'Handicap Index (optional; a plus index as -2)'),
          h('input', { id: 'player-index', type: 'number', step: '0.1', min: '-10', max: '54', inputmode: 'decimal',
            onkeydown: addOnEnter }),
          state.device?.spaces[state.space.space] && !players.some((p) => p.user === state.device.user)
            ? h('div', { class: 'check' }, h('input', { type: 'checkbox', id: 'player-me' }),
              h('label', { for: 'player-me' }, `This player is me (${state.device.name})`))
            : null,
          h('button', { type: 'button', id: 'player-add', onclick: addPlayer }, 'Add the player'),
          h('div', { id: 'player-message', 'aria-live': 'assertive' }))),
      h('fieldset', {}, h('legend', {}, 'Side games'),
        FORMATS.map((f) => h('div', { class: 'format-pick' },
          h('div', { class: 'check' },
            h('input', { type: 'checkbox', id: `f-${f.name}`, checked: f.onByDefault, 'aria-describedby': `fd-${f.name}` }),
            h('label', { for: `f-${f.name}` }, f.title)),
          h('p', { class: 'hint', id: `fd-${f.name}` }, f.summary))),
        h('label', { for: 'skins' }, 'Skins on'),
        h('select', { id: 'skins' }, h('option', { value: 'net' }, 'net scores (strokes off the low)'),
          h('option', { value: 'gross' }, 'gross scores')),
        h('p', { class: 'hint' }, 'Formats played in sides (match play, the Nassau, four-ball, Chapman, foursomes, team '
          + 'Stableford, the scramble) take sides A and B; two players need none. The Wolf and Bingo Bango Bongo are '
          + 'entered on each hole of the card.'),
        players.map((p) => h('div', { class: 'inline' },
          h('label', { for: `t-${p.player}` }, `${p.name}'s side`),
          h('select', { id: `t-${p.player}` }, h('option', { value: '' }, 'none'), h('option', { value: 'A' }, 'side A'),
            h('option', { value: 'B' }, 'side B')))),
        h('label', { for: 'stake' }, 'Stake per skin or bet (0 for none)'),
        h('input', { id: 'stake', type: 'number', min: '0', step: '0.5', value: '0', inputmode: 'decimal' })),
      h('button', { type: 'submit', class: 'primary' }, 'Start the game')),
    message);
  // Drawn again after a player was added: what was chosen stays chosen (the new player's fields take their defaults).
  for (const [id, value] of kept?.inputs ?? []) {
    const field = document.getElementById(id);
    if (field && field !== tee) field[field.type === 'checkbox' ? 'checked' : 'value'] = value;
  }
  if (kept?.chosen) {
    await choose(kept.chosen);
    if ([...tee.options].some((o) => o.value === kept.tee)) tee.value = kept.tee;
  }
}
