// The phone's signing and sending: ops signed with the phone's own device (scores, hole choices, attestations, a
// game's fields), each kept in the outbox in the same IndexedDB transaction as the device's log head, and the
// outbox sent to the node, oldest first, whenever one answers. app.js gives it its state and what the card screen
// does when entries land.

import { post, enc } from './api.js';
import * as outbox from './outbox.js';
import * as local from './local.js';
import * as device from './device.js';
import * as ops from './ops.js';

/** The sender over app.js's `state`; `app` also gives `landedOf`, `onCardScreen`, `land`, `loadCard`, `fetchSetup`,
 * `setStatus` and `renderCard`. */
export function sender(app) {
  const { state } = app;

  /** The clocks of every value on the open card: an op signed here is stamped after all of them. */
  function cardClocks() {
    if (!state.card) return [];
    return state.card.players.flatMap((p) => p.cells.flatMap((c) => c.values.map((v) => ops.parseClock(v.hlc))));
  }

  /** Signs score ops on this phone, one for each of `entries` ({player, hole, entry, seen}), and keeps them (log
   * head, outbox, the drafts in `left`) in one transaction. Each replaces the values it names in `seen` (what the
   * screen showed when the entry began) and this phone's own entries for the cell that no node has taken yet. */
  async function signScores(space, game, entries, left) {
    const items = entries.map(({ player, hole, entry, seen }) => ({
      pred: [...seen, ...outbox.signedOf(state.pending, space, game, player, hole), ...app.landedOf(space, game, player, hole)],
      payload: ops.scorePayload(entry.pickUp ? { game, player, hole, pickUp: true }
        : { game, player, hole, strokes: entry.strokes, putts: entry.putts ?? null, fairway: entry.fairway ?? null,
          gir: entry.gir ?? null }),
    }));
    await device.sign(space, items, { seenClocks: cardClocks() }, async (record, signed) => {
      const now = Date.now();
      const made = signed.map((op, i) => outbox.signed({ space, game, player: entries[i].player, hole: entries[i].hole,
        ...entries[i].entry }, op, now));
      await local.keepSigned(record, made, left === null ? null : game, left);
      state.device = record;
      state.pending = outbox.ordered([...state.pending, ...made]);
    });
  }

  /** Signs one op of this phone's device in the shown space (stamped after every value of the card) and keeps it in
   * the outbox as `entry` describes it (outbox.signed: its kind, game and what it carries), as a score is kept. */
  async function signOne(payload, entry) {
    const space = state.space.space;
    await device.sign(space, [{ payload }], { seenClocks: cardClocks() }, async (record, signed) => {
      const made = signed.map((op) => outbox.signed({ space, ...entry }, op, Date.now()));
      await local.keepSigned(record, made);
      state.device = record;
      state.pending = outbox.ordered([...state.pending, ...made]);
    });
    app.setStatus();
  }

  /** Signs a hole choice on this phone: the game's field hole.N.KEY, a player id, 'lone', or null to clear it. */
  function signChoice(game, hole, key, choice) {
    const payload = ops.choicePayload({ game, hole, key, player: choice === 'lone' ? null : choice, lone: choice === 'lone' });
    return signOne(payload, { kind: 'choice', game, hole, key, choice });
  }

  /** Signs, on this phone, its user's attestation of a player's card as the card shows it now. */
  function signAttest(player) {
    const c = state.card;
    const hash = ops.cardHash(c.game, player.player, c.holes, player.cells);
    return signOne(ops.attestPayload({ game: c.game, player: player.player, cardHash: hash }),
      { kind: 'attest', game: c.game, player: player.player });
  }

  /** Sends the outbox, oldest entry first. Stops at the first entry no node takes now and tries again after a
   * backoff (2 s, doubling to a minute), on the browser's `online` event, or when the live stream opens. A refused
   * entry stays on the phone with the node's reason. */
  function send() {
    if (state.sending) {
      state.sendAgain = true;  // an entry kept while a send runs is sent when it ends: waiting for this round waits for it
      return state.sendRound;
    }
    state.sendRound = sendRound();
    return state.sendRound;
  }

  async function sendRound() {
    state.sendAgain = false;
    window.clearTimeout(state.sendTimer);
    state.sending = true;
    let took = 0;
    let choices = 0;
    let again = false;
    const sentScores = [];
    try {
      // A partner's new session is claimed by this phone's device first (route's start): entries wait for it.
      if (state.starting) await state.starting.catch(() => {});
      state.pending = outbox.ordered(await local.outbox());
      const waiting = state.pending.filter((e) => !e.refused);
      // Entries signed on this phone go as one request a run (a saved hole: one POST); if the node refuses a run,
      // its entries go one by one, so that the refusal stays with the entry it names.
      let alone = 0;
      for (let i = 0; i < waiting.length;) {
        const batch = i < alone ? [waiting[i]] : outbox.run(waiting, i);
        try {
          const entry = batch[0];
          let name = null;
          if (entry.op) {
            await post(`/v1/spaces/${enc(entry.space)}/ops`, { ops: batch.map((e) => e.op) }, { signIn: false });
          } else {
            const answer = await post(`/v1/spaces/${enc(entry.space)}/games/${enc(entry.game)}/scores`, outbox.body(entry),
              { signIn: false });
            if (answer?.op) state.sentOps.add(answer.op);
            name = answer?.op ?? null;
          }
          for (const sent of batch) {
            await local.sent(sent);
            took += 1;
            if (sent.kind === 'choice') choices += 1;
            if (outbox.isScore(sent)) sentScores.push({ ...sent, name: sent.name ?? name });
          }
          state.signedOut = false;
          i += batch.length;
        } catch (error) {
          const what = outbox.failure(error);
          if (what === 'refused' && batch.length > 1) {
            alone = i + batch.length;
            continue;
          }
          if (what === 'refused') {
            await local.refuse(batch[0], error.message);
            i += 1;
            continue;
          }
          state.signedOut = what === 'signed-out';
          again = what === 'retry';
          break;
        }
      }
      const left = outbox.ordered(await local.outbox());
      if (took && app.onCardScreen() && state.link === 'live' && !choices && sentScores.every((e) => e.name)) {
        // The node pushes the card after the commit: the entries stay drawn until it shows them, with no read.
        app.land(sentScores);
      } else if (took && app.onCardScreen()) {
        // The card is read again before the entries leave the phone's view, so a value never blinks out between.
        try { await app.loadCard(state.game); } catch (error) { /* the card shows what the phone keeps */ }
        // A choice leaves the outbox only once the game's fields the card draws it from hold it.
        if (choices) { try { await app.fetchSetup(state.game); } catch (error) { /* drawn from what the phone has */ } }
      }
      state.pending = left;
    } catch (error) {
      again = true;
    } finally {
      state.sending = false;
    }
    if (state.sendAgain && !again) return send();
    if (again && state.pending.some((e) => !e.refused)) {
      state.sendTimer = window.setTimeout(send, outbox.backoff(state.sendAttempt));
      state.sendAttempt += 1;
    } else {
      state.sendAttempt = 0;
    }
    app.setStatus();
    if (app.onCardScreen() && state.card) app.renderCard();
  }

  return { send, signScores, signOne, signChoice, signAttest };
}
