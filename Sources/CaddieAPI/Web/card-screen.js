// The card screen: the hole being entered on a phone (each player's strokes, putts, fairway, green and pick-up, a
// competition's signed cards, the side games' one-tap choices), the whole card as a table, the entries a node
// refused, and saving a hole on the phone. app.js gives it its state and the parts it shares (card-actions.js's
// attest, finish, disputes and history among them).

import { h, mount } from './render.js';
import { patch, enc } from './api.js';
import * as card from './store.js';
import * as outbox from './outbox.js';
import * as local from './local.js';

/** The card screen over app.js's `state`; `app` also gives `main`, `nav`, `base`, `problem`, `say`, `setStatus`,
 * `send`, `signScores`, `signChoice`, `landedOf`, `shownEntries`, `keepDrafts`, `mine`, `fetchSetup`,
 * `formatsKnown` (the format list once read, else null) and the card's actions (`disputesBanner`, `roundActions`,
 * `showConflict`, `showHistory`). */
export function cardScreen(app) {
  const { state, main, nav, base, problem, say, setStatus, send, signScores, signChoice, landedOf, shownEntries,
    keepDrafts, mine, fetchSetup, disputesBanner, roundActions, showConflict, showHistory } = app;

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
    const rows = c.players.map((player) => (player.locked ? lockedRow(player, hole, card.cell(player, hole))
      : playerRow(player, hole, par, choices, kept.get(`${player.player}:${hole}`), disputed)));
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

  /** One player's row on the hole: what the cell shows (the draft being typed, else the entry this phone keeps, else
   * the node's value), its marks, and the controls that change it. `waiting`: this phone's unsent entry for the cell. */
  function playerRow(player, hole, par, choices, waiting, disputed) {
    const saved = card.cell(player, hole);
    const draft = state.draft.get(`${hole}:${player.player}`);
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
    const cell = { value, pickedUp, putts, fairway, gir };
    return h('li', { class: 'player' },
      rowHead(player, hole, { choices, disputed, late, draft, waiting, open }),
      strokeControls(player, hole, cell, change, choosePutts),
      open ? extras(player, par, cell, setDraft, pickUp) : null);
  }

  /** A player's name, running total or side-game chips, and what the cell's entry is: disputed, entered elsewhere
   * meanwhile (with the way to take that value), not saved, on this phone or refused. */
  function rowHead(player, hole, { choices, disputed, late, draft, waiting, open }) {
    const c = state.card;
    const total = card.total(player, 1, c.holes);
    const key = `${player.player}:${hole}`;
    return h('div', { class: 'who' }, h('strong', {}, player.name),
      choices ? null : h('span', { class: 'running' }, total === null ? '' : total === 'NR' ? ' NR'
        : ` ${total} (${card.toPar(c, player) ?? '–'})`),
      choiceChips(choices, player),
      disputed.has(key) ? h('button', { type: 'button', class: 'dispute', onclick: () => showConflict(player, hole) },
        '⚠ Disputed: settle') : null,
      late.length ? h('span', { class: 'tag late', id: `late-${player.player}`, role: 'status' },
        `⚠ ${late.map((v) => `${v.author} entered ${card.entryWords(v)}`).join(', ')} meanwhile: saving yours makes a dispute`)
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
        say(`${player.name}: your entry dropped, ${card.entryWords(late[late.length - 1])} kept.`);
      } }, late.length === 1 ? `Use ${late[0].author}'s ${card.entryWords(late[0])}` : 'Drop mine') : null,
      h('button', { type: 'button', class: 'more', id: `more-${player.player}`, 'aria-expanded': open ? 'true' : 'false',
        'aria-label': `Fairway, green and pick-up for ${player.name}`, onclick: () => {
          if (state.more.has(player.player)) state.more.delete(player.player); else state.more.add(player.player);
          renderCard();
          document.getElementById(`more-${player.player}`)?.focus();
        } }, open ? 'Less' : 'More'));
  }

  /** The strokes stepper and the putts chips of a player's cell. */
  function strokeControls(player, hole, { value, pickedUp, putts }, change, choosePutts) {
    return h('div', { class: 'line' },
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
        })));
  }

  /** The fairway (on a par 4 or 5), green in regulation and pick-up of a player's cell, shown under "More". */
  function extras(player, par, { pickedUp, fairway, gir }, setDraft, pickUp) {
    const fairwayChoices = [['', 'not recorded'], ['hit', 'hit'], ['left', 'missed left'], ['right', 'missed right']];
    return h('div', { class: 'putts extras' },
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
          h('label', { for: `pu-${player.player}` }, 'Picked up (no score)')));
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
    const played = setup && app.formatsKnown() ? app.formatsKnown().filter((f) => setup.formats.includes(f.name)) : [];
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
    const played = setup && app.formatsKnown() ? app.formatsKnown().filter((f) => setup.formats.includes(f.name)) : [];
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
      : `${nameOf(e.player)}, hole ${e.hole}: ${card.entryWords(e)}`);
    return h('section', { class: 'panel', 'aria-label': 'Entries the node refused' },
      h('h3', {}, `${refused.length} ${refused.length === 1 ? 'entry' : 'entries'} refused, kept on this phone`),
      h('ul', { class: 'list' }, refused.map((e) => h('li', {},
        h('p', {}, h('strong', {}, what(e)), ` — ${e.refused}`),
        h('button', { type: 'button', onclick: async () => {
          await local.discard(e.key);
          state.pending = await local.outbox();
          renderCard();
          setStatus();
        } }, outbox.isScore(e) ? `Discard ${nameOf(e.player)}'s ${card.entryWords(e)} on hole ${e.hole}` : `Discard ${what(e)}`)))));
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
          return h('td', { class: 'pending' }, h('span', { 'aria-label': `${player.name} hole ${n}: ${card.entryWords(waiting)}, on this phone, not yet sent` },
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

  return { renderCard };
}
