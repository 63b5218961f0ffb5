// Unit tests of the web app's pure helpers (Sources/CaddieAPI/Web/store.js), run with `node --test`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as card from '../../Sources/CaddieAPI/Web/store.js';

const player = (name, scores) => ({ player: name, name, cells: Object.entries(scores).map(([hole, strokes]) => ({ hole: Number(hole), strokes })) });
const game = (players, par = [4, 3, 5]) => ({ holes: par.length, par, players, conflicts: [] });

test('the current hole is the first that someone has not scored', () => {
  assert.equal(card.currentHole(game([player('Ana', { 1: 4 }), player('Ben', { 1: 5, 2: 3 })])), 2);
  assert.equal(card.currentHole(game([player('Ana', {})])), 1);
  assert.equal(card.currentHole(game([player('Ana', { 1: 4, 2: 3, 3: 5 })])), 3);
});

test('totals add the scored holes only, and are null with none', () => {
  const ana = player('Ana', { 1: 4, 3: 6 });
  assert.equal(card.total(ana, 1, 3), 10);
  assert.equal(card.total(ana, 2, 2), null);
});

test('to par counts the holes played with a known par', () => {
  assert.equal(card.toPar(game([]), player('Ana', { 1: 4, 2: 3 })), 'E');
  assert.equal(card.toPar(game([]), player('Ana', { 1: 6 })), '+2');
  assert.equal(card.toPar(game([]), player('Ana', { 3: 4 })), '-1');
  assert.equal(card.toPar(game([], [null, null, null]), player('Ana', { 1: 4 })), null);
});

test('+/- starts at par on an empty cell and stays within 1...20', () => {
  assert.equal(card.stepStrokes(null, 1, 5), 5);
  assert.equal(card.stepStrokes(null, -1, null), 4);
  assert.equal(card.stepStrokes(4, 1, 5), 5);
  assert.equal(card.stepStrokes(1, -1, 5), 1);
  assert.equal(card.stepStrokes(20, 1, 5), 20);
});

test('conflict keys name player and hole', () => {
  const g = game([]);
  g.conflicts = [{ player: 'p1', hole: 7 }];
  assert.ok(card.conflictKeys(g).has('p1:7'));
  assert.ok(!card.conflictKeys(g).has('p1:8'));
});

test('clock reads ISO times and hybrid logical clocks in the local time zone; op labels name device and entry', () => {
  const zone = process.env.TZ;
  process.env.TZ = 'UTC';
  assert.equal(card.clock('2026-11-24T10:04:05.123Z'), '10:04');
  // 1795485165655 ms after 1970 is 2026-11-24 01:52:45.655 UTC (worked out independently, not by the app's formula).
  assert.equal(card.clock('1795485165655.0'), '01:52');
  // In Amsterdam in November (UTC+1) the same moments read an hour later; in Los Angeles (UTC-8), eight earlier.
  process.env.TZ = 'Europe/Amsterdam';
  assert.equal(card.clock('2026-11-24T10:04:05.123Z'), '11:04');
  process.env.TZ = 'America/Los_Angeles';
  assert.equal(card.clock('1795485165655.0'), '17:52');
  if (zone === undefined) delete process.env.TZ; else process.env.TZ = zone;
  assert.equal(card.clock('soon'), 'soon');
  assert.equal(card.opLabel('c65d6ccfeed9d9075ad1:12'), 'device c65d6ccf, entry 12');
});

test('the leaderboard orders by strokes to par, shares positions on ties, and says how many holes each played', () => {
  const c = game([player('Ana', { 1: 4, 2: 3 }), player('Ben', { 1: 5 }), player('Cleo', { 1: 3, 2: 3 }), player('Dev', {})]);
  const rows = card.leaderboard(c);
  assert.deepEqual(rows.map((r) => [r.position, r.name, r.toPar, r.thru]),
    [[1, 'Cleo', '-1', 2], [2, 'Ana', 'E', 2], [3, 'Ben', '+1', 1]]);
  const tied = card.leaderboard(game([player('Ana', { 1: 4 }), player('Ben', { 1: 4 }), player('Cleo', { 1: 5 })]));
  assert.deepEqual(tied.map((r) => [r.position, r.name]), [[1, 'Ana'], [1, 'Ben'], [3, 'Cleo']]);
});

test('a draft remembers what its cell showed: a value entered after it began is news, and is not replaced', () => {
  const before = { hole: 2, strokes: 5, values: [{ op: 'aa:1', strokes: 5, author: 'Ana' }] };
  const draft = { strokes: 4, seen: card.seenOf(before) };
  assert.deepEqual(card.meanwhile(draft, before), []);
  assert.deepEqual(card.draftPred(draft, before), ['aa:1']);
  // Cy saves 6 on another phone: it replaced Ana's 5 there, and the card now shows his value only.
  const after = { hole: 2, strokes: 6, values: [{ op: 'cc:4', strokes: 6, author: 'Cy' }] };
  assert.deepEqual(card.meanwhile(draft, after).map((v) => `${v.strokes} ${v.author}`), ['6 Cy']);
  // Saving names only what the draft saw: Cy's 6 stands beside it, a dispute.
  assert.deepEqual(card.draftPred(draft, after), ['aa:1']);
  // A draft begun on an empty cell replaces nothing.
  assert.deepEqual(card.draftPred({ strokes: 4, seen: card.seenOf(null) }, after), []);
  assert.equal(card.meanwhile({ strokes: 4, seen: [] }, after).length, 1);
  // A draft kept by an older app (no `seen`) replaces the cell as it is, as it always did.
  assert.deepEqual(card.draftPred({ strokes: 4 }, after), ['cc:4']);
  assert.deepEqual(card.meanwhile({ strokes: 4 }, after), []);
});

test('an entry in words is its strokes, or a pick-up whatever strokes it carries', () => {
  assert.equal(card.entryWords({ strokes: 5 }), '5');
  assert.equal(card.entryWords({ strokes: null, pickUp: true }), 'a pick-up');
  assert.equal(card.entryWords({ strokes: 7, pickUp: true }), 'a pick-up');
  assert.equal(card.entryWords({ strokes: 4, pickUp: false }), '4');
});

test('a dispute names every field in which its values differ, and only those', () => {
  const cy = { strokes: 3, putts: 2, fairway: 'hit', gir: true, author: 'Cy' };
  const bo = { strokes: 3, putts: 1, fairway: 'hit', gir: true, author: 'Bo' };
  assert.deepEqual(card.valueWords([cy, bo]), ['3, 2 putts (Cy)', '3, 1 putt (Bo)']);
  assert.deepEqual(card.valueWords([{ ...cy, strokes: 5 }, bo]), ['5, 2 putts (Cy)', '3, 1 putt (Bo)']);
  assert.deepEqual(card.valueWords([{ ...cy, putts: 1, gir: null }, { ...bo, fairway: 'left' }]),
    ['3, fairway hit, green not recorded (Cy)', '3, missed left, green in regulation (Bo)']);
  assert.deepEqual(card.valueWords([{ strokes: 5, putts: null, author: 'Ana' }, { strokes: 6, putts: null, author: 'Ben' }]),
    ['5 (Ana)', '6 (Ben)']);
});

test('the leaderboard counts the entries waiting on the phone, and says whose rows are provisional', () => {
  const c = game([player('Ana', { 1: 4, 2: 3 }), player('Ben', { 1: 4 })]);
  assert.deepEqual(card.leaderboard(c).map((r) => [r.name, r.thru]), [['Ana', 2], ['Ben', 1]]);
  const { card: seen, provisional } = card.withWaiting(c, [{ player: 'Ben', hole: 2, strokes: 2 }, { player: 'Ben', hole: 1, strokes: 3 }]);
  // Ben's 3 replaces his 4 on hole 1 and his 2 on hole 2 is added: -2 thru 2, ahead of Ana's E.
  assert.deepEqual(card.leaderboard(seen).map((r) => [r.name, r.thru, r.toPar]), [['Ben', 2, '-2'], ['Ana', 2, 'E']]);
  assert.deepEqual([...provisional], ['Ben']);
  assert.equal(card.withWaiting(c, []).provisional.size, 0);
  assert.equal(c.players[1].cells.length, 1, 'the node\'s card is left as it was');
});

test('an entry of this phone that a node took after a draft began is no news, and the draft replaces it', () => {
  // Hole 3 saved in a dead zone (on the phone), then Ben's value typed again as a draft; the node comes back and
  // takes the first entry: the cell now shows this phone's own op.
  const draft = { strokes: 6, seen: [] };
  const cell = { hole: 3, strokes: 5, values: [{ op: 'dd:7', strokes: 5, author: 'Dev' }] };
  const mine = (op) => op.startsWith('dd:');
  assert.deepEqual(card.meanwhile(draft, cell, mine), []);
  assert.deepEqual(card.draftPred(draft, cell, mine), ['dd:7']);
  // Someone else's value is still news, and still not replaced.
  const both = { ...cell, values: [...cell.values, { op: 'bb:2', strokes: 7, author: 'Ben' }] };
  assert.deepEqual(card.meanwhile(draft, both, mine).map((v) => v.author), ['Ben']);
  assert.deepEqual(card.draftPred(draft, both, mine), ['dd:7']);
});

test('a pick-up is entered (P), makes the totals and to par NR, and puts its player last on the leaderboard', () => {
  const picked = (name, scores, hole) => {
    const p = player(name, scores);
    p.cells.push({ hole, strokes: null, pickUp: true });
    p.cells.sort((a, b) => a.hole - b.hole);
    return p;
  };
  const ana = picked('Ana', { 1: 3 }, 2);
  const ben = player('Ben', { 1: 6, 2: 5 });
  const c = game([ana, ben]);
  assert.equal(card.strokes(ana, 2), card.PICK_UP);
  assert.equal(card.currentHole(c), 3, 'a picked-up hole is not waiting for a score');
  assert.equal(card.total(ana, 1, 3), 'NR');
  assert.equal(card.total(ana, 1, 1), 3, 'a range without the pick-up still adds up');
  assert.equal(card.toPar(c, ana), 'NR');
  const rows = card.leaderboard(c);
  assert.deepEqual(rows.map((r) => [r.position, r.name, r.toPar, r.thru]), [[1, 'Ben', '+4', 2], [null, 'Ana', 'NR', 2]]);
  assert.deepEqual(card.valueWords([{ pickUp: true, strokes: null, author: 'Cy' }, { strokes: 6, author: 'Bo' }]),
    ['picked up (Cy)', '6 (Bo)']);
  const { card: shown } = card.withWaiting(game([player('Cal', { 1: 4 })]), [{ player: 'Cal', hole: 1, pickUp: true }]);
  assert.equal(card.strokes(shown.players[0], 1), card.PICK_UP, 'a pick-up kept on the phone shows as one');
});

test('a card shows an op when some cell holds it among its values, whoever entered it; not when it was replaced', () => {
  const withValues = {
    holes: 2, par: [4, 3], conflicts: [],
    players: [
      { player: 'p1', name: 'Ana', cells: [{ hole: 1, strokes: 4, values: [{ op: 'aa:3', strokes: 4 }] }] },
      { player: 'p2', name: 'Ben', cells: [{ hole: 1, strokes: 5, values: [{ op: 'bb:7', strokes: 5 }, { op: 'aa:4', strokes: 6 }] }, { hole: 2, strokes: 3 }] },
    ],
  };
  assert.equal(card.showsOp(withValues, 'aa:3'), true);
  assert.equal(card.showsOp(withValues, 'aa:4'), true, 'a value of a disputed cell counts');
  assert.equal(card.showsOp(withValues, 'aa:2'), false, 'an op the card does not show (replaced, or not there yet)');
  assert.equal(card.showsOp(withValues, 'aa:33'), false, 'names are compared whole');
  assert.equal(card.showsOp({ holes: 1, par: [4], players: [], conflicts: [] }, 'aa:3'), false);
});

test("a hole's drafts become its entries: a locked card's left out, a value entered meanwhile counted, other holes kept", () => {
  const values = (op, strokes, author) => ({ values: [{ op, strokes, author }], strokes });
  const c = {
    holes: 3, par: [4, 3, 5], conflicts: [],
    players: [
      { player: 'ana', name: 'Ana', cells: [{ hole: 2, ...values('aa:1', 5, 'Ana') }] },
      { player: 'ben', name: 'Ben', cells: [{ hole: 2, ...values('cc:4', 6, 'Cy') }] },
      { player: 'cy', name: 'Cy', locked: true, cells: [] },
    ],
  };
  const draft = new Map([
    ['2:ana', { strokes: 4, seen: ['aa:1'] }],
    ['2:ben', { strokes: 5, seen: ['bb:2'] }],  // Ben's cell took Cy's 6 after this draft began
    ['2:cy', { strokes: 3, seen: [] }],          // Cy's card is locked: not saved
    ['3:ana', { strokes: 5, seen: [] }],         // another hole: stays typed
  ]);
  const { entries, left, disputes } = card.holeDrafts(c, draft, 2);
  assert.deepEqual(entries.map((e) => [e.player, e.hole, e.entry.strokes, e.seen]),
    [['ana', 2, 4, ['aa:1']], ['ben', 2, 5, ['bb:2']]]);
  assert.equal(disputes, 1);
  assert.deepEqual(left, [['3:ana', { strokes: 5, seen: [] }]]);
  // Hole 12 is not hole 1: a key's hole is matched whole.
  assert.deepEqual(card.holeDrafts(c, new Map([['12:ana', { strokes: 4 }]]), 1).entries, []);
});
