// What is done to the open card besides entering holes: attesting a card, finishing or reopening the game,
// settling a dispute (from the banner, the dispute panel or the standings) and a cell's history. Signed on the
// phone where it is a device of its own, else sent for the node to sign. app.js gives it its state.

import { h, mount } from './render.js';
import { get, post, enc } from './api.js';
import * as card from './store.js';
import * as outbox from './outbox.js';
import * as ops from './ops.js';

/** The card's actions over app.js's `state`; `app` also gives `base`, `problem`, `say`, `setStatus`, `send`,
 * `signScores`, `signOne`, `signAttest`, `loadCard`, `shownEntries`, `partner`, `myPlayer`, `renderCard` and
 * `redraw` (the screen a dispute was settled from). */
export function cardActions(app) {
  const { state, base, problem, say, setStatus, send, signScores, signOne, signAttest, loadCard, shownEntries, partner,
    myPlayer, renderCard, redraw } = app;

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
      say(`${player.name}'s hole ${hole} settled at ${card.entryWords(value)} on this phone.`);
      setStatus();
      await send();
      return redraw();
    }
    try {
      await post(`${base()}/games/${enc(state.game)}/scores`, value.pickUp ? { player: player.player, hole, pickUp: true }
        : { player: player.player, hole, strokes: value.strokes, ...(value.putts !== null ? { putts: value.putts } : {}) });
      await loadCard(state.game);
      await redraw();
      say(`${player.name}'s hole ${hole} settled at ${card.entryWords(value)}.`);
    } catch (error) { mount(settleMessage(), problem(error)); }
  }

  async function showHistory(player, hole) {
    const panel = document.getElementById('panel');
    try {
      const entries = await get(`${base()}/games/${enc(state.game)}/history?player=${enc(player.player)}&hole=${hole}`);
      mount(panel, h('section', { class: 'panel', role: 'dialog', 'aria-labelledby': 'panel-title' },
        h('h3', { id: 'panel-title', tabindex: '-1' }, `${player.name}, hole ${hole}: history`),
        h('ol', { class: 'list' }, entries.map((entry) => h('li', {},
          `${card.entryWords(entry)} by ${entry.author} at ${card.clock(entry.time)} (${card.opLabel(entry.op)})`,
          entry.standing ? h('span', { class: 'tag live' }, ' standing') : h('span', { class: 'tag' }, ' replaced')))),
        h('button', { type: 'button', onclick: () => mount(panel) }, 'Close')));
      document.getElementById('panel-title').focus();
    } catch (error) { mount(panel, problem(error)); }
  }

  return { disputesBanner, roundActions, showConflict, showHistory };
}
