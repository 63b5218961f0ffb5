// Unit tests of the phone's outbox rules (Sources/CaddieAPI/Web/outbox.js), run with `node --test`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as outbox from '../../Sources/CaddieAPI/Web/outbox.js';

const cell = { space: 's1', game: 'g1', player: 'p1', hole: 3 };

test('an entry is kept with what its maker saw of the cell', () => {
  const kept = outbox.queue([], { ...cell, strokes: 5, putts: 2, seen: ['aa:1'] }, 1000);
  assert.equal(kept.length, 1);
  assert.deepEqual(kept[0].seen, ['aa:1']);
  assert.equal(kept[0].key, 's1/g1/p1/3');
  assert.equal(kept[0].made, 1000);
  assert.equal(kept[0].refused, null);
});

test('a correction of an unsent entry replaces its value and keeps what the first one saw', () => {
  let kept = outbox.queue([], { ...cell, strokes: 5, seen: [] }, 1000);
  kept = outbox.queue(kept, { ...cell, strokes: 6, seen: ['bb:4'] }, 2000);
  assert.equal(kept.length, 1);
  assert.equal(kept[0].strokes, 6);
  assert.deepEqual(kept[0].seen, []);
  assert.equal(kept[0].made, 1000);
  assert.equal(kept[0].changed, 2000);
});

test('a refused entry entered again is tried again, and entries stay in the order they were made', () => {
  let kept = outbox.queue([], { ...cell, strokes: 5, seen: [] }, 1000);
  kept = outbox.queue(kept, { ...cell, hole: 4, strokes: 4, seen: [] }, 1500);
  kept = kept.map((e) => (e.hole === 3 ? { ...e, refused: 'game g1 is finished' } : e));
  kept = outbox.queue(kept, { ...cell, strokes: 7, seen: [] }, 3000);
  assert.deepEqual(kept.map((e) => [e.hole, e.strokes, e.refused]), [[3, 7, null], [4, 4, null]]);
});

test('the body sends what was entered and what was seen, and leaves out what was not recorded', () => {
  const [entry] = outbox.queue([], { ...cell, strokes: 5, putts: null, fairway: null, gir: false, seen: ['aa:1'] }, 1);
  assert.deepEqual(outbox.body(entry), { player: 'p1', hole: 3, strokes: 5, seen: ['aa:1'], gir: false });
  const [full] = outbox.queue([], { ...cell, strokes: 4, putts: 0, fairway: 'left', gir: true, seen: [] }, 1);
  assert.deepEqual(outbox.body(full), { player: 'p1', hole: 3, strokes: 4, seen: [], putts: 0, fairway: 'left', gir: true });
});

test('a failure is retried when no node took the entry, kept when signed out, listed when refused', () => {
  assert.equal(outbox.failure({ status: 0 }), 'retry');
  assert.equal(outbox.failure({ status: 503 }), 'retry');
  assert.equal(outbox.failure({ status: 429 }), 'retry');
  assert.equal(outbox.failure({ status: 401 }), 'signed-out');
  assert.equal(outbox.failure({ status: 400 }), 'refused');
  assert.equal(outbox.failure({ status: 404 }), 'refused');
});

test('tries back off from 2 s to at most a minute', () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5, 20].map(outbox.backoff), [2000, 4000, 8000, 16000, 32000, 60000, 60000]);
});

test('the status line counts what waits and what was refused', () => {
  let kept = outbox.queue([], { ...cell, strokes: 5, seen: [] }, 1);
  assert.equal(outbox.pendingText(kept), '1 entry on this phone, not yet sent');
  kept = outbox.queue(kept, { ...cell, hole: 4, strokes: 5, seen: [] }, 2);
  kept = outbox.queue(kept, { ...cell, hole: 5, strokes: 5, seen: [] }, 3);
  assert.equal(outbox.pendingText(kept), '3 entries on this phone, not yet sent');
  kept[0] = { ...kept[0], refused: 'no' };
  assert.equal(outbox.pendingText(kept), '2 entries on this phone, not yet sent · 1 refused by the node, kept on this phone');
  assert.equal(outbox.pendingText([]), '');
});

test('a game\'s entries are found by player and hole', () => {
  let kept = outbox.queue([], { ...cell, strokes: 5, seen: [] }, 1);
  kept = outbox.queue(kept, { ...cell, game: 'g2', strokes: 6, seen: [] }, 2);
  const mine = outbox.ofGame(kept, 's1', 'g1');
  assert.equal(mine.size, 1);
  assert.equal(mine.get('p1:3').strokes, 5);
});

test('a run of entries signed on the phone goes in one request; a node-signed entry or another space starts a new one', () => {
  const signed = (key, space = 's1') => ({ key, space, op: `op-${key}` });
  const plain = (key) => ({ key, space: 's1', strokes: 4 });
  const hole = [signed('a'), signed('b'), signed('c'), signed('d')];
  assert.deepEqual(outbox.run(hole, 0).map((e) => e.key), ['a', 'b', 'c', 'd']);
  assert.deepEqual(outbox.run(hole, 2).map((e) => e.key), ['c', 'd']);
  const mixed = [signed('a'), plain('b'), signed('c'), signed('d', 's2')];
  assert.deepEqual(outbox.run(mixed, 0).map((e) => e.key), ['a']);
  assert.deepEqual(outbox.run(mixed, 1).map((e) => e.key), ['b']);
  assert.deepEqual(outbox.run(mixed, 2).map((e) => e.key), ['c']);
  assert.deepEqual(outbox.run(mixed, 4), []);
  const many = Array.from({ length: 300 }, (_, i) => signed(String(i)));
  assert.equal(outbox.run(many, 0).length, outbox.MAX_OPS);
  assert.equal(outbox.run(many, 256).length, 44);
});

test('a pick-up is kept with no strokes and sent as pickUp alone, with what was seen', () => {
  const made = outbox.queue([], { space: 's', game: 'g', player: 'p1', hole: 4, pickUp: true, strokes: 5, seen: ['aa:2'] }, 10);
  assert.equal(made[0].pickUp, true);
  assert.equal(made[0].strokes, null);
  assert.deepEqual(outbox.body(made[0]), { player: 'p1', hole: 4, pickUp: true, seen: ['aa:2'] });
  const again = outbox.queue(made, { space: 's', game: 'g', player: 'p1', hole: 4, strokes: 6, seen: [] }, 11);
  assert.equal(again.length, 1);
  assert.equal(again[0].pickUp, false, 'a score entered after the pick-up replaces it');
  assert.deepEqual(outbox.body(again[0]), { player: 'p1', hole: 4, strokes: 6, seen: ['aa:2'] });
});
