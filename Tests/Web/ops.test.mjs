// The phone's op encoder and BLAKE2b (Sources/CaddieAPI/Web/ops.js, blake2b.js) against RFC 7693 and
// Protocol/vectors/op-v1.json, byte for byte, with node's WebCrypto Ed25519. Run with `node --test`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { blake2b } from '../../Sources/CaddieAPI/Web/blake2b.js';
import * as ops from '../../Sources/CaddieAPI/Web/ops.js';

const vectors = JSON.parse(readFileSync(new URL('../../Protocol/vectors/op-v1.json', import.meta.url)));
const ascii = (s) => new TextEncoder().encode(s);
const counting = (n) => Uint8Array.from({ length: n }, (_, i) => i % 251);

test('BLAKE2b-512 of "abc" is the example of RFC 7693 (appendix A)', () => {
  assert.equal(ops.hex(blake2b(ascii('abc'), 64)),
    'ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1'
    + '7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923');
});

test('BLAKE2b-256 sets the digest length (it is not a cut BLAKE2b-512), over empty, short and multi-block input', () => {
  const expected = [
    [new Uint8Array(0), '0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8'],
    [ascii('abc'), 'bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319'],
    [Uint8Array.from({ length: 128 }, (_, i) => i), 'c3582f71ebb2be66fa5dd750f80baae97554f3b015663c8be377cfcb2488c1d1'],
    [counting(129), 'f7f3c46ba2564ff4c4c162da1f5b605f9f1c4aa6a20652a9f9a337c1a2f5b9c9'],
    [counting(1000), 'b372d0608f720c8c3dd41e9c8eecb10143b41abe520b616607e754bf79c08331'],
  ];
  for (const [data, digest] of expected) assert.equal(ops.hex(blake2b(data, 32)), digest, `length ${data.length}`);
  assert.notEqual(ops.hex(blake2b(ascii('abc'), 32)), ops.hex(blake2b(ascii('abc'), 64)).slice(0, 64));
});

test('every op of the vectors hashes to its listed hash', () => {
  for (const op of vectors.ops) assert.equal(ops.hex(ops.opHash(ops.unhex(op.bytes))), op.hash, op.name);
});

test('a key from the vectors\' seeds has their public key, and certifies the device with their signature', async () => {
  const user = await ops.keyFromSeed(ops.unhex(vectors.userSeed));
  const device = await ops.keyFromSeed(ops.unhex(vectors.deviceSeed));
  assert.equal(ops.hex(user.publicKey), vectors.userPublicKey);
  assert.equal(ops.hex(device.publicKey), vectors.devicePublicKey);
  const message = ops.certificateMessage(vectors.userPublicKey, vectors.devicePublicKey, vectors.certifiedAt);
  assert.equal(ops.hex(message), vectors.certificateMessage);
  const signature = new Uint8Array(await crypto.subtle.sign({ name: 'Ed25519' }, user.key, message));
  assert.equal(ops.hex(signature), vectors.certificateSignature);
});

test('the join, score and correction ops of the vectors are made byte for byte', async () => {
  const device = await ops.keyFromSeed(ops.unhex(vectors.deviceSeed));
  const byName = Object.fromEntries(vectors.ops.map((op) => [op.name, op]));
  const join = ops.joinPayload({ user: vectors.userPublicKey, certifiedAt: vectors.certifiedAt,
    certificate: vectors.certificateSignature, proof: vectors.membershipProof, name: 'Ana' });
  assert.equal(ops.hex(join), byName.join.payload);
  const score = ops.scorePayload({ game: 'a0a1a2a3a4a5a6a7', player: 'b0b1b2b3b4b5b6b7', hole: 7, strokes: 5, putts: 2 });
  assert.equal(ops.hex(score), byName.score.payload);
  const correction = ops.scorePayload({ game: 'a0a1a2a3a4a5a6a7', player: 'b0b1b2b3b4b5b6b7', hole: 7, strokes: 4 });
  assert.equal(ops.hex(correction), byName.correction.payload);
  const made = [
    [byName.join, join, []],
    [byName.score, score, []],
    [byName.correction, correction, [`${vectors.devicePublicKey}:4`]],
  ];
  for (const [vector, payload, pred] of made) {
    const unsigned = ops.unsignedOp({ space: vectors.space, device: vectors.devicePublicKey, seq: BigInt(vector.seq),
      prev: vector.prev, hlc: BigInt(vector.hlc), pred, payload });
    const op = await ops.signOp(unsigned, device.key);
    assert.equal(ops.hex(op), vector.bytes, vector.name);
  }
});

test('the phone makes the statistics op of the vectors (0x22) byte for byte', async () => {
  const device = await ops.keyFromSeed(ops.unhex(vectors.deviceSeed));
  const vector = vectors.ops.find((op) => op.name === 'statistics');
  const payload = ops.scorePayload({ game: 'a0a1a2a3a4a5a6a7', player: 'b0b1b2b3b4b5b6b7', hole: 8, strokes: 4, putts: 2,
    penalties: 0, fairway: 'left', gir: false });
  assert.equal(ops.hex(payload), vector.payload);
  const unsigned = ops.unsignedOp({ space: vectors.space, device: vectors.devicePublicKey, seq: BigInt(vector.seq),
    prev: vector.prev, hlc: BigInt(vector.hlc), pred: [], payload });
  assert.equal(ops.hex(await ops.signOp(unsigned, device.key)), vector.bytes);
});

test('a score with a fairway or a green is tag 0x22, as in op-format.md', () => {
  const payload = ops.scorePayload({ game: '0102030405060708', player: '0909090909090909', hole: 3, strokes: 5, putts: 2,
    fairway: 'left', gir: true });
  assert.equal(ops.hex(payload), '010122' + '0102030405060708' + '0909090909090909' + '030502ff0101');
  assert.throws(() => ops.scorePayload({ game: '0102030405060708', player: '0909090909090909', hole: 3, strokes: 2, putts: 3 }));
  assert.throws(() => ops.scorePayload({ game: '01', player: '0909090909090909', hole: 3, strokes: 2 }));
});

test('a pick-up is tag 0x23 with the game, the player and the hole only, as in op-format.md', () => {
  const payload = ops.scorePayload({ game: '0102030405060708', player: '0909090909090909', hole: 3, pickUp: true });
  assert.equal(ops.hex(payload), '010123' + '0102030405060708' + '0909090909090909' + '03');
  assert.throws(() => ops.scorePayload({ game: '0102030405060708', player: '0909090909090909', hole: 3, pickUp: true, strokes: 5 }),
    /a pick-up records no strokes/);
  assert.throws(() => ops.scorePayload({ game: '0102030405060708', player: '0909090909090909', hole: 3, pickUp: true, putts: 1 }));
});

test('a card hash counts a pick-up as strokes 0 with putts and penalties not recorded', () => {
  const game = '0102030405060708';
  const player = '0909090909090909';
  const pickedUp = ops.hex(ops.cardHash(game, player, 18, [{ hole: 3, winner: { strokes: null, pickUp: true, putts: null, penalties: null } }]));
  const zero = ops.hex(ops.cardHash(game, player, 18, [{ hole: 3, winner: { strokes: 0, putts: null, penalties: null } }]));
  const five = ops.hex(ops.cardHash(game, player, 18, [{ hole: 3, winner: { strokes: 5, putts: null, penalties: null } }]));
  assert.equal(pickedUp, zero);
  assert.notEqual(pickedUp, five);
});

test('preds are ordered by device then seq, without repeats', () => {
  const a = 'aa'.repeat(32);
  const b = 'bb'.repeat(32);
  assert.deepEqual(ops.orderedPred([`${b}:1`, `${a}:10`, `${a}:9`, `${a}:10`]).map((e) => e.name), [`${a}:9`, `${a}:10`, `${b}:1`]);
});

test('the clock moves past what it saw, and a clock more than a day ahead does not count', () => {
  const at = (ms, counter = 0) => (BigInt(ms) << 16n) | BigInt(counter);
  assert.equal(ops.nextClock(at(1000, 5), 2000), at(2000));
  assert.equal(ops.nextClock(at(3000, 5), 2000), at(3000, 6));
  assert.equal(ops.nextClock(at(3000, 0xffff), 2000), at(3001));
  assert.equal(ops.parseClock('1795485165655.3'), at(1795485165655, 3));
  assert.equal(ops.counts(at(2000 + 86400000), 2000), true);
  assert.equal(ops.counts(at(2001 + 86400000), 2000), false);
});

test('recovery words are the seed and a SHA-256 check byte, 11 bits a word', async () => {
  const words = Array.from({ length: 2048 }, (_, i) => `w${i}`);
  const zero = await ops.recoveryWords(new Uint8Array(32), words);
  // SHA-256 of 32 zero bytes starts with 0x66: the last word holds 3 zero bits of the seed and the 8 check bits.
  assert.deepEqual(zero.slice(0, 23), Array(23).fill('w0'));
  assert.equal(zero[23], `w${0x66}`);
  const ones = await ops.recoveryWords(new Uint8Array(32).fill(0xff), words);
  assert.equal(ones[0], 'w2047');
});

test('a session proof signs caddie-web-session-v1, the session id, the user and the device, as the node checks it', () => {
  const user = 'aa'.repeat(32);
  const device = 'bb'.repeat(32);
  const message = ops.sessionMessage('1a2b3c4d', user, device);
  assert.equal(ops.hex(message), ops.hex(ascii('caddie-web-session-v11a2b3c4d')) + user + device);
  assert.throws(() => ops.sessionMessage('1a2b3c4d', 'aa', device), /32 bytes/);
});

test('a set, a hole choice and an attestation are made byte for byte as the vectors hold them', () => {
  const byName = Object.fromEntries(vectors.ops.map((op) => [op.name, op]));
  // The player record: fields given in any order are written in ascending name order, a number as binary64.
  const player = ops.setPayload('player', 'b0b1b2b3b4b5b6b7', [['name', { text: 'Ana' }], ['index', { number: 12.4 }]]);
  assert.equal(ops.hex(player), byName.player.payload);
  // Three hole choices in one set: a player's id (bytes), the Wolf alone (text "lone") and one cleared (null).
  const choices = ops.setPayload('game', 'a0a1a2a3a4a5a6a7', [
    ['hole.5.bingo', null],
    ['hole.3.wolf', { bytes: 'b0b1b2b3b4b5b6b7' }],
    ['hole.4.wolf', { text: 'lone' }],
  ]);
  assert.equal(ops.hex(choices), byName.choices.payload);
  // A phone's one choice is that op with one field.
  assert.equal(ops.hex(ops.choicePayload({ game: 'a0a1a2a3a4a5a6a7', hole: 4, key: 'wolf', lone: true })),
    ops.hex(ops.setPayload('game', 'a0a1a2a3a4a5a6a7', [['hole.4.wolf', { text: 'lone' }]])));
  const attest = ops.attestPayload({ game: 'a0a1a2a3a4a5a6a7', player: 'b0b1b2b3b4b5b6b7', cardHash: '44'.repeat(32) });
  assert.equal(ops.hex(attest), byName.attest.payload);
  assert.throws(() => ops.setPayload('game', 'a0a1a2a3a4a5a6a7', [['x', null], ['x', null]]), /twice/);
  assert.throws(() => ops.setPayload('round', 'a0a1a2a3a4a5a6a7', [['x', null]]), /kind/);
  assert.throws(() => ops.choicePayload({ game: 'a0a1a2a3a4a5a6a7', hole: 40, key: 'wolf' }), /hole/);
});

test('the card hash of Protocol/vectors/card-v1.json (the card the ops of op-v1.json leave) is the node\'s', () => {
  const card = JSON.parse(readFileSync(new URL('../../Protocol/vectors/card-v1.json', import.meta.url)));
  const cells = card.cells.map(([hole, strokes, putts, penalties]) => ({ hole, winner: { strokes, putts, penalties } }));
  assert.equal(ops.hex(ops.cardHash(card.game, card.player, card.holeCount, cells)), card.cardHash);
});

test('the card hash covers each shown value in hole order, and holes without one are left out', () => {
  const cells = [{ hole: 2, winner: { strokes: 4, putts: 2, penalties: null } }, { hole: 1, winner: { strokes: 5, putts: null } }];
  const expected = blake2b(Uint8Array.from([...ascii('caddie-card-v1'), ...ops.unhex('a0a1a2a3a4a5a6a7'),
    ...ops.unhex('b0b1b2b3b4b5b6b7'), 1, 5, 0xff, 0xff, 2, 4, 2, 0xff]), 32);
  assert.equal(ops.hex(ops.cardHash('a0a1a2a3a4a5a6a7', 'b0b1b2b3b4b5b6b7', 18, cells)), ops.hex(expected));
  // A value past the card's holes does not count; a changed value changes the hash.
  assert.equal(ops.hex(ops.cardHash('a0a1a2a3a4a5a6a7', 'b0b1b2b3b4b5b6b7', 1, cells)),
    ops.hex(blake2b(Uint8Array.from([...ascii('caddie-card-v1'), ...ops.unhex('a0a1a2a3a4a5a6a7'),
      ...ops.unhex('b0b1b2b3b4b5b6b7'), 1, 5, 0xff, 0xff]), 32)));
  assert.notEqual(ops.hex(ops.cardHash('a0a1a2a3a4a5a6a7', 'b0b1b2b3b4b5b6b7', 18, [{ hole: 1, winner: { strokes: 6 } }])),
    ops.hex(expected));
});

test('recovery words give back their seed, and a wrong, missing or misplaced word is named', async () => {
  const words = Array.from({ length: 2048 }, (_, i) => `w${i}`);
  const seed = Uint8Array.from({ length: 32 }, (_, i) => (i * 37 + 11) & 0xff);
  const phrase = await ops.recoveryWords(seed, words);
  assert.deepEqual([...await ops.seedFromWords(phrase.join(' '), words)], [...seed]);
  // Typed any case, with commas and line breaks.
  assert.deepEqual([...await ops.seedFromWords(` ${phrase.join(',\n').toUpperCase()} `, words)], [...seed]);
  await assert.rejects(ops.seedFromWords(phrase.slice(1).join(' '), words), /24 words, got 23/);
  await assert.rejects(ops.seedFromWords([...phrase.slice(0, 5), 'golf', ...phrase.slice(6)].join(' '), words),
    /word 6, "golf", is not a recovery word/);
  const swapped = [...phrase];
  [swapped[3], swapped[4]] = [swapped[4], swapped[3]];
  await assert.rejects(ops.seedFromWords(swapped.join(' '), words), /do not check out/);
  // The vectors' user seed: its words bring back the vectors' user key.
  const user = await ops.keyFromSeed(await ops.seedFromWords((await ops.recoveryWords(ops.unhex(vectors.userSeed), words)).join(' '), words));
  assert.equal(ops.hex(user.publicKey), vectors.userPublicKey);
});

/** A payload of a set followed by roster adds (`set` is a one-change setPayload; its count byte is raised). */
function withRoster(set, game, players) {
  const out = [...set];
  out[1] = 1 + players.length;
  for (const player of players) out.push(0x11, ...ops.unhex(game), ...ops.unhex(player));
  return Uint8Array.from(out);
}

test('a draft is read as the vectors hold it: the player and the game with its roster add', () => {
  const byName = Object.fromEntries(vectors.ops.map((op) => [op.name, op]));
  const plain = (changes) => changes.map((c) => (c.fields ? { ...c, fields: { ...c.fields } } : c));
  assert.deepEqual(plain(ops.readDraft(byName.player.payload)), [{ tag: 'set', kind: 'player', entity: 'b0b1b2b3b4b5b6b7',
    fields: { index: { number: 12.4 }, name: { text: 'Ana' } } }]);
  assert.deepEqual(plain(ops.readDraft(byName.game.payload)), [
    { tag: 'set', kind: 'game', entity: 'a0a1a2a3a4a5a6a7', fields: { finished: { integer: 0n }, tee: { text: 'White' } } },
    { tag: 'rosterAdd', game: 'a0a1a2a3a4a5a6a7', player: 'b0b1b2b3b4b5b6b7' },
  ]);
  // A field named twice, or one named like an object's built-ins, is a field like any other to the checks.
  const twice = byName.player.payload.replace('0002', '0003') + '046e616d65010003416e61';
  assert.throws(() => ops.readDraft(twice), /set twice/);
  // Every other change of the vectors is refused: a phone never signs a join, score, attest or removal it was handed.
  for (const name of ['join', 'score', 'correction', 'attest', 'statistics', 'roster remove', 'revoke']) {
    assert.throws(() => ops.readDraft(byName[name].payload), /only sets and roster adds/, name);
  }
  assert.throws(() => ops.readDraft(`${byName.player.payload}00`), /bytes after/);
  assert.throws(() => ops.readDraft(byName.player.payload.slice(0, -4)), /ends early/);
  assert.throws(() => ops.readDraft(`02${byName.player.payload.slice(2)}`), /version 1/);
});

test('a player draft is signed only when it is the player asked for', () => {
  const asked = { player: 'b0b1b2b3b4b5b6b7', name: 'Ana', index: 12.4 };
  const draft = ops.setPayload('player', asked.player, [['name', { text: 'Ana' }], ['index', { number: 12.4 }]]);
  assert.equal(ops.checkPlayerDraft(draft, asked).length, 1);
  assert.throws(() => ops.checkPlayerDraft(draft, { ...asked, name: 'Ann' }), /names the player "Ana", not "Ann"/);
  assert.throws(() => ops.checkPlayerDraft(draft, { ...asked, index: 3 }), /index is not what was asked/);
  assert.throws(() => ops.checkPlayerDraft(draft, { ...asked, player: 'c0c1c2c3c4c5c6c7' }), /not one new player/);
  assert.throws(() => ops.checkPlayerDraft(draft, { ...asked, user: '11'.repeat(32) }), /leaves out user/);
  const linked = ops.setPayload('player', asked.player, [['name', { text: 'Ana' }], ['user', { bytes: '11'.repeat(32) }]]);
  assert.equal(ops.checkPlayerDraft(linked, { ...asked, index: null, user: '11'.repeat(32) }).length, 1);
  assert.throws(() => ops.checkPlayerDraft(linked, { ...asked, index: null }), /user is not what was asked/);
  const extra = ops.setPayload('player', asked.player, [['name', { text: 'Ana' }], ['index', { number: 12.4 }], ['admin', { integer: 1 }]]);
  assert.throws(() => ops.checkPlayerDraft(extra, asked), /not asked for: admin/);
  const proto = ops.setPayload('player', asked.player, [['name', { text: 'Ana' }], ['index', { number: 12.4 }], ['__proto__', { integer: 1 }]]);
  assert.throws(() => ops.checkPlayerDraft(proto, asked), /not asked for: __proto__/);
  // A user or index the phone did not ask for, in any form, is refused; so is one of the wrong type.
  const textUser = ops.setPayload('player', asked.player, [['name', { text: 'Ana' }], ['index', { number: 12.4 }], ['user', { text: 'x' }]]);
  assert.throws(() => ops.checkPlayerDraft(textUser, asked), /user is not what was asked/);
  const textIndex = ops.setPayload('player', asked.player, [['name', { text: 'Ana' }], ['index', { text: '12.4' }]]);
  assert.throws(() => ops.checkPlayerDraft(textIndex, asked), /index is not what was asked/);
});

test('a check-in draft is signed only when it links the player asked for to this phone\'s user, and nothing else', () => {
  const asked = { player: 'b0b1b2b3b4b5b6b7', user: '11'.repeat(32) };
  const claim = ops.setPayload('player', asked.player, [['user', { bytes: asked.user }]]);
  assert.equal(ops.checkPlayerClaim(claim, asked).length, 1);
  assert.throws(() => ops.checkPlayerClaim(claim, { ...asked, user: '22'.repeat(32) }), /user is not what was asked/);
  assert.throws(() => ops.checkPlayerClaim(claim, { ...asked, player: 'c0c1c2c3c4c5c6c7' }), /not one change of the player/);
  const renamed = ops.setPayload('player', asked.player, [['user', { bytes: asked.user }], ['name', { text: 'Eve' }]]);
  assert.throws(() => ops.checkPlayerClaim(renamed, asked), /not asked for: name/);
  const game = ops.setPayload('game', asked.player, [['user', { bytes: asked.user }]]);
  assert.throws(() => ops.checkPlayerClaim(game, asked), /not one change of the player/);
});

test('a game draft is signed only with the course, tee, players and setup chosen, and nothing else', () => {
  const game = 'a0a1a2a3a4a5a6a7';
  const [ana, ben, cy] = ['b0b1b2b3b4b5b6b7', 'b1b1b2b3b4b5b6b7', 'b2b1b2b3b4b5b6b7'];
  const base = [['course', { bytes: 'c0c1c2c3c4c5c6c7' }], ['tee', { text: 'White' }], ['finished', { integer: 0 }],
    ['created', { integer: 1764400000000 }]];
  const setup = [['formats', { text: 'stroke,skins' }], ['skins', { text: 'net' }], ['stake', { number: 2 }],
    [`marker.${ana}`, { bytes: ben }], [`marker.${ben}`, { bytes: ana }], [`team.${ana}`, { text: 'A' }], [`team.${ben}`, { text: 'B' }]];
  const asked = { game, course: 'c0c1c2c3c4c5c6c7', tee: 'White', players: [ana, ben],
    markers: [{ player: ana, marker: ben }, { player: ben, marker: ana }], formats: ['skins', 'stroke'], skins: 'net',
    teams: [[ana], [ben]], stake: 2 };
  const make = (fields, roster = [ana, ben], rosterGame = game, kind = 'game') =>
    withRoster(ops.setPayload(kind, game, fields), rosterGame, roster);
  assert.equal(ops.checkGameDraft(make([...base, ...setup]), asked).length, 3);
  // The plain game: no setup asked, none in the draft.
  const plainAsk = { game, course: 'c0c1c2c3c4c5c6c7', tee: 'White', players: [ana, ben] };
  assert.equal(ops.checkGameDraft(make(base), plainAsk).length, 3);
  assert.throws(() => ops.checkGameDraft(make([...base, ...setup]), plainAsk), /not asked for: marker\./);
  assert.throws(() => ops.checkGameDraft(make([...base, ['stake', { number: 2 }]]), plainAsk), /stake is not what was asked/);
  assert.throws(() => ops.checkGameDraft(make([...base, ...setup]), { ...asked, tee: 'Red' }), /tee "White", not "Red"/);
  assert.throws(() => ops.checkGameDraft(make([...base, ...setup]), { ...asked, course: 'c9c1c2c3c4c5c6c7' }), /another course/);
  assert.throws(() => ops.checkGameDraft(make([...base, ...setup]), { ...asked, players: [ana, ben, cy] }), /leaves out team/);
  assert.throws(() => ops.checkGameDraft(make(base), { ...plainAsk, players: [ana, ben, cy] }), /not the ones chosen/);
  assert.throws(() => ops.checkGameDraft(make([...base, ...setup], [ana, ben, cy]), asked), /not the ones chosen/);
  assert.throws(() => ops.checkGameDraft(make([...base, ...setup], [ana, ben], 'a9a1a2a3a4a5a6a7'), asked), /another game/);
  assert.throws(() => ops.checkGameDraft(make([...base, ...setup], [ana, ben], game, 'player'), asked), /not one new game/);
  // A node that raises the stake, swaps a marker, moves a side, slips in a hole's choice or reopens: refused.
  const changed = (name, value) => make([...base, ...setup].map(([k, v]) => [k, k === name ? value : v]));
  assert.throws(() => ops.checkGameDraft(changed('stake', { number: 20 }), asked), /stake is not what was asked/);
  assert.throws(() => ops.checkGameDraft(changed(`marker.${ana}`, { bytes: cy }), asked), /marker\.b0b1b2b3b4b5b6b7 is not/);
  assert.throws(() => ops.checkGameDraft(changed(`team.${ben}`, { text: 'A' }), asked), /team\.b1b1b2b3b4b5b6b7 is not/);
  assert.throws(() => ops.checkGameDraft(changed('formats', { text: 'stroke,wolf' }), asked), /formats is not/);
  assert.throws(() => ops.checkGameDraft(changed('finished', { integer: 1 }), asked), /finished is not/);
  assert.throws(() => ops.checkGameDraft(make([...base, ...setup, ['hole.1.wolf', { bytes: ana }]]), asked),
    /not asked for: hole\.1\.wolf/);
  assert.throws(() => ops.checkGameDraft(make([...base, ...setup.filter(([k]) => k !== 'stake')]), asked), /leaves out stake/);
});
