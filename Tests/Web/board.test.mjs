// Unit tests of the public board's pure helpers (Sources/CaddieAPI/Web/board.js), run with `node --test`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as board from '../../Sources/CaddieAPI/Web/board.js';

const head = (extra = {}) => ({
  name: 'Medal', scoring: 'stableford', hiddenHoles: 0, closed: false, groups: 2, lastEntry: null, twos: [],
  divisions: [{ number: 1, range: 'up to 12', name: null }, { number: 2, range: '13+', name: null }], ...extra,
});
const line = (player, division, order, extra = {}) => ({
  player, name: player, division, order, position: order + 1, tied: false, thru: 9, complete: false, points: 20,
  netToPar: 1, grossToPar: 5, status: null, decidedBy: null, ...extra,
});

test('a whole event replaces the board; a change replaces only the lines and head it sends', () => {
  let state = board.apply(null, { whole: true, head: head(), lines: [line('ann', 1, 0), line('ben', 1, 1)], removed: [] });
  assert.deepEqual(Object.keys(state.lines).sort(), ['ann', 'ben']);
  state = board.apply(state, { whole: false, head: null, lines: [line('ben', 1, 0, { points: 25 }), line('ann', 1, 1)], removed: [] });
  assert.equal(state.head.name, 'Medal', 'a change without a head keeps the head');
  assert.deepEqual(board.divisions(state)[0].rows.map((row) => row.player), ['ben', 'ann']);
  state = board.apply(state, { whole: false, head: head({ name: 'Final' }), lines: [], removed: ['ann'] });
  assert.equal(state.head.name, 'Final');
  assert.deepEqual(Object.keys(state.lines), ['ben']);
  state = board.apply(state, { whole: true, head: head(), lines: [line('cat', 2, 0)], removed: [] });
  assert.deepEqual(Object.keys(state.lines), ['cat'], 'a whole board forgets the lines it does not carry');
});

test('divisions are titled by name, by band, or not at all for one division', () => {
  const state = board.apply(null, { whole: true, head: head(), lines: [line('cat', 2, 0), line('ann', 1, 0)] });
  assert.deepEqual(board.divisions(state).map((d) => d.title), ['Division 1 (up to 12)', 'Division 2 (13+)']);
  assert.equal(board.divisionTitle({ number: 1, range: null, name: 'Ladies' }, 2), 'Ladies');
  assert.equal(board.divisionTitle({ number: 1, range: null, name: null }, 1), '');
});

test('positions, thru and the ranking figure read as a board prints them', () => {
  assert.equal(board.position(line('a', 1, 0, { position: 3, tied: true })), 'T3');
  assert.equal(board.position(line('a', 1, 0, { position: null, status: 'DQ' })), 'DQ');
  assert.equal(board.position(line('a', 1, 0, { position: null, thru: 0 })), '');
  assert.equal(board.thru(line('a', 1, 0, { complete: true, thru: 18 })), 'F');
  assert.equal(board.thru(line('a', 1, 0, { thru: 0 })), '-');
  assert.equal(board.score(head(), line('a', 1, 0)), '20');
  assert.equal(board.score(head({ scoring: 'net' }), line('a', 1, 0)), '+1');
  assert.equal(board.score(head({ scoring: 'gross' }), line('a', 1, 0, { grossToPar: 0 })), 'E');
  assert.equal(board.score(head({ scoring: 'net' }), line('a', 1, 0, { netToPar: -4 })), '-4');
  assert.equal(board.score(head(), line('a', 1, 0, { status: 'NR' })), '', 'no figure for a card out of the running');
});

test('a TV cuts each division into pages of what the screen holds', () => {
  const groups = [{ number: 1, title: 'A', rows: [1, 2, 3, 4, 5] }, { number: 2, title: 'B', rows: [] }];
  const pages = board.pages(groups, 2);
  assert.deepEqual(pages.map((p) => [p.title, p.page, p.of, p.rows.length]), [
    ['A', 1, 3, 2], ['A', 2, 3, 2], ['A', 3, 3, 1], ['B', 1, 1, 0],
  ]);
});

test('the facts line says the scoring, the hidden holes and the last entry', () => {
  assert.equal(board.facts(head()), 'Stableford · no scores yet');
  assert.equal(
    board.facts(head({ scoring: 'net', hiddenHoles: 3, lastEntry: '2026-11-29T10:42:07.000Z' })),
    "Medal (net) · each card's last 3 holes hidden · last entry 10:42");
  assert.equal(board.facts(head({ hiddenHoles: 1, closed: true })), "Stableford · each card's last hole hidden · closed: final · no scores yet");
});
