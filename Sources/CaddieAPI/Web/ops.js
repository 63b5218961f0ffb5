// Caddie ops made on the phone, in the op format of Protocol/op-format.md: the op's bytes, the join and score
// payloads, the device certificate, the hash chain (BLAKE2b-256) and the hybrid logical clock. Signing is Ed25519
// from WebCrypto, with keys that never leave it. Checked byte for byte against Protocol/vectors/op-v1.json by
// Tests/Web/ops.test.mjs.

import { blake2b } from './blake2b.js';

const text = new TextEncoder();

export function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function unhex(value) {
  if (typeof value !== 'string' || value.length % 2 !== 0 || /[^0-9a-f]/i.test(value)) {
    throw new TypeError(`not hex: ${String(value).slice(0, 20)}`);
  }
  const out = new Uint8Array(value.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(value.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Big-endian bytes, as every integer of the format is written. */
class Writer {
  constructor() { this.bytes = []; }
  u8(n) { this.bytes.push(n & 0xff); return this; }
  u16(n) { return this.u8(n >>> 8).u8(n); }
  u32(n) { return this.u16(n >>> 16).u16(n & 0xffff); }
  u64(n) {
    const value = BigInt(n);
    for (let shift = 56n; shift >= 0n; shift -= 8n) this.u8(Number((value >> shift) & 0xffn));
    return this;
  }
  raw(bytes) { for (const b of bytes) this.bytes.push(b); return this; }
  fixed(value, length, what) {
    const bytes = typeof value === 'string' ? unhex(value) : value;
    if (bytes.length !== length) throw new RangeError(`${what} must be ${length} bytes, got ${bytes.length}`);
    return this.raw(bytes);
  }
  done() { return Uint8Array.from(this.bytes); }
}

const NOT_RECORDED = 0xff;
const FAIRWAYS = { hit: 0, left: 1, right: 2 };

/** The payload of a score: tag 0x20, or 0x22 when a fairway or a green in regulation is recorded; a pick-up
 * (`pickUp`, no strokes, putts or statistics) is tag 0x23: the game, the player and the hole. */
export function scorePayload({ game, player, hole, strokes, putts = null, penalties = null, fairway = null, gir = null,
  pickUp = false }) {
  if (!(hole >= 1 && hole <= 36)) throw new RangeError('a hole is 1...36');
  if (pickUp) {
    if ((strokes ?? null) !== null || putts !== null || penalties !== null || fairway !== null || gir !== null) {
      throw new RangeError('a pick-up records no strokes, putts, penalties or statistics');
    }
    return new Writer().u8(1).u8(1).u8(0x23).fixed(game, 8, 'a game id').fixed(player, 8, 'a player id').u8(hole).done();
  }
  if (!(strokes >= 1 && strokes <= 30)) throw new RangeError('strokes are 1...30');
  for (const [name, value] of [['putts', putts], ['penalties', penalties]]) {
    if (value !== null && !(value >= 0 && value <= strokes)) throw new RangeError(`${name} are 0...strokes`);
  }
  if (fairway !== null && !(fairway in FAIRWAYS)) throw new RangeError('a fairway is hit, left or right');
  const statistics = fairway !== null || gir !== null;
  const w = new Writer().u8(1).u8(1).u8(statistics ? 0x22 : 0x20)
    .fixed(game, 8, 'a game id').fixed(player, 8, 'a player id')
    .u8(hole).u8(strokes).u8(putts ?? NOT_RECORDED).u8(penalties ?? NOT_RECORDED);
  if (statistics) w.u8(fairway === null ? NOT_RECORDED : FAIRWAYS[fairway]).u8(gir === null ? NOT_RECORDED : gir ? 1 : 0);
  return w.done();
}

const KINDS = { space: 1, player: 2, course: 3, game: 4, invite: 5 };

/** A field value as a set change writes it: null, {text}, {integer}, {number} or {bytes} (hex or bytes). */
function fieldValue(w, value) {
  if (value === null) return w.u8(0);
  if (typeof value.text === 'string') {
    const bytes = text.encode(value.text);
    if (bytes.length > 1024) throw new RangeError('a text field is at most 1024 bytes');
    return w.u8(1).u16(bytes.length).raw(bytes);
  }
  if (value.integer !== undefined) return w.u8(2).u64(BigInt.asUintN(64, BigInt(value.integer)));
  if (typeof value.number === 'number') {
    if (!Number.isFinite(value.number)) throw new RangeError('a number field is finite');
    const bits = new DataView(new ArrayBuffer(8));
    bits.setFloat64(0, value.number);
    return w.u8(3).raw(new Uint8Array(bits.buffer));
  }
  if (value.bytes !== undefined) {
    const bytes = typeof value.bytes === 'string' ? unhex(value.bytes) : value.bytes;
    return w.u8(4).u32(bytes.length).raw(bytes);
  }
  throw new TypeError('a field value is null, text, integer, number or bytes');
}

/** The payload of a set (tag 0x10): last-writer-wins fields of one record, written in ascending name order.
 * `fields` is a list of [name, value] (fieldValue's forms). */
export function setPayload(kind, entity, fields) {
  if (!(kind in KINDS)) throw new RangeError(`a record kind is one of ${Object.keys(KINDS).join(', ')}`);
  if (!fields.length) throw new RangeError('a set writes at least one field');
  const sorted = [...fields].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const w = new Writer().u8(1).u8(1).u8(0x10).u8(KINDS[kind]).fixed(entity, 8, 'an entity id').u16(sorted.length);
  sorted.forEach(([name, value], i) => {
    const bytes = text.encode(name);
    if (bytes.length < 1 || bytes.length > 64) throw new RangeError('a field name is 1...64 bytes');
    if (i > 0 && sorted[i - 1][0] === name) throw new RangeError(`the field ${name} is named twice`);
    fieldValue(w.u8(bytes.length).raw(bytes), value);
  });
  return w.done();
}

/** A choice entered on a hole (the Wolf's partner, Bingo Bango Bongo's points): the game's field hole.N.KEY, set to
 * the player's id, to "lone" (the Wolf alone), or cleared (null), as the node writes it for `caddie game setup`. */
export function choicePayload({ game, hole, key, player = null, lone = false }) {
  if (!(hole >= 1 && hole <= 36)) throw new RangeError('a hole is 1...36');
  if (!/^[a-z]{1,16}$/.test(key)) throw new RangeError('a choice key is a short lower-case word');
  const value = lone ? { text: 'lone' } : player ? { bytes: player } : null;
  return setPayload('game', game, [[`hole.${hole}.${key}`, value]]);
}

/** The payload of an attestation (tag 0x21): the marker signs a player's card as it stands (cardHash). */
export function attestPayload({ game, player, cardHash: hash }) {
  return new Writer().u8(1).u8(1).u8(0x21).fixed(game, 8, 'a game id').fixed(player, 8, 'a player id')
    .fixed(hash, 32, 'a card hash').done();
}

/** The card hash an attestation carries (Protocol/op-format.md, "Card hash"): BLAKE2b-256 of caddie-card-v1, the
 * game, the player, and for each hole 1...holes with a shown value its hole, strokes, putts and penalties (0xFF when
 * not recorded; a pick-up strokes 0). `cells` are the player's cells as the node's card gives them ({hole, winner}). */
export function cardHash(game, player, holes, cells) {
  const w = new Writer().raw(text.encode('caddie-card-v1')).fixed(game, 8, 'a game id').fixed(player, 8, 'a player id');
  const byHole = new Map(cells.map((c) => [c.hole, c]));
  for (let hole = 1; hole <= holes; hole += 1) {
    const winner = byHole.get(hole)?.winner;
    if (!winner) continue;
    // A pick-up is strokes 0, putts and penalties not recorded.
    w.u8(hole).u8(winner.pickUp ? 0 : winner.strokes).u8(winner.putts ?? NOT_RECORDED).u8(winner.penalties ?? NOT_RECORDED);
  }
  return blake2b(w.done(), 32);
}

/** The payload of a device's join: its user, the user's certificate of it, the membership proof, the user's name. */
export function joinPayload({ user, certifiedAt, certificate, proof, name }) {
  const bytes = text.encode(name);
  if (bytes.length < 1 || bytes.length > 1024) throw new RangeError('a user name is 1...1024 bytes');
  return new Writer().u8(1).u8(1).u8(0x01)
    .fixed(user, 32, 'a user key').u64(certifiedAt).fixed(certificate, 64, 'a certificate')
    .fixed(proof, 32, 'a membership proof').u16(bytes.length).raw(bytes).done();
}

/** The bytes a user signs to certify a device: "caddie-cert-v1" ‖ user ‖ device ‖ certifiedAt. */
export function certificateMessage(user, device, certifiedAt) {
  return new Writer().raw(text.encode('caddie-cert-v1')).fixed(user, 32, 'a user key').fixed(device, 32, 'a device key')
    .u64(certifiedAt).done();
}

/** What a phone's device signs to make a partner's browser session its own (Protocol/openapi.yaml, sessionProof):
 * caddie-web-session-v1, the session id, the user key, the device key. */
export function sessionMessage(session, user, device) {
  return new Writer().raw(text.encode('caddie-web-session-v1')).raw(text.encode(session)).fixed(user, 32, 'a user key')
    .fixed(device, 32, 'a device key').done();
}

/** Pred entries as the format orders them: by device, then seq, without repeats. `pred` holds "DEVICEHEX:SEQ". */
export function orderedPred(pred) {
  return [...new Set(pred)].map((name) => {
    const [device, seq] = name.split(':');
    return { device, seq: BigInt(seq), name };
  }).sort((a, b) => (a.device < b.device ? -1 : a.device > b.device ? 1 : a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0));
}

/** Every byte of an op before its signature. `seq` and `hlc` are BigInts (or what BigInt takes). */
export function unsignedOp({ space, device, seq, prev, hlc, pred = [], payload }) {
  const entries = orderedPred(pred);
  if (entries.length > 64) throw new RangeError('an op names at most 64 preds');
  const w = new Writer().u8(1).fixed(space, 16, 'a space id').fixed(device, 32, 'a device key').u64(seq)
    .fixed(prev, 32, 'the previous op hash').u64(hlc).u16(entries.length);
  for (const entry of entries) w.fixed(entry.device, 32, 'a pred device').u64(entry.seq);
  return w.u32(payload.length).raw(payload).done();
}

/** The op: its bytes signed with the device's WebCrypto Ed25519 key over "caddie-op-v1" ‖ the unsigned bytes. */
export async function signOp(unsigned, deviceKey) {
  const message = new Uint8Array(12 + unsigned.length);
  message.set(text.encode('caddie-op-v1'));
  message.set(unsigned, 12);
  const signature = new Uint8Array(await crypto.subtle.sign({ name: 'Ed25519' }, deviceKey, message));
  const op = new Uint8Array(unsigned.length + 64);
  op.set(unsigned);
  op.set(signature, unsigned.length);
  return op;
}

/** The hash that the device's next op carries as `prev`. */
export function opHash(op) {
  return blake2b(op, 32);
}

/** An HLC from the node's text form "MILLISECONDS.COUNTER", as a BigInt. */
export function parseClock(value) {
  const match = /^(\d+)\.(\d+)$/.exec(String(value ?? ''));
  return match ? (BigInt(match[1]) << 16n) | BigInt(match[2]) : 0n;
}

/** The clock of the next op: later than `last` (this device's newest op and the newest op it has seen, leaving out
 * ops stamped more than a day after `now`), at `now` when the wall clock is later. */
export function nextClock(last, now) {
  const ms = last >> 16n;
  const counter = last & 0xffffn;
  const wall = BigInt(now);
  if (wall > ms) return wall << 16n;
  if (counter === 0xffffn) return (ms + 1n) << 16n;
  return last + 1n;
}

/** Whether a seen clock may move this device's clock: at most a day ahead of `now`. */
export function counts(clock, now) {
  return clock <= ((BigInt(now) + 86400000n) << 16n | 0xffffn);
}

const PKCS8_ED25519 = [0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20];

/** A WebCrypto Ed25519 signing key from a 32-byte seed, and its public key. The key is kept non-extractable. */
export async function keyFromSeed(seed) {
  const der = Uint8Array.from([...PKCS8_ED25519, ...seed]);
  const extractable = await crypto.subtle.importKey('pkcs8', der, { name: 'Ed25519' }, true, ['sign']);
  const jwk = await crypto.subtle.exportKey('jwk', extractable);
  const publicKey = Uint8Array.from(atob(jwk.x.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey('pkcs8', der, { name: 'Ed25519' }, false, ['sign']);
  der.fill(0);
  return { key, publicKey };
}

/** The 32-byte seed that 24 recovery words stand for (the reverse of recoveryWords): each word's place in `words`,
 * 11 bits a word, the seed and then the first byte of its SHA-256, which must match. Throws with what was wrong
 * (how many words, which word is not in the list, or that the check failed: a word wrong or out of order). */
export async function seedFromWords(text, words) {
  const given = String(text ?? '').toLowerCase().split(/[\s,]+/).filter(Boolean);
  if (given.length !== 24) throw new RangeError(`recovery words are 24 words, got ${given.length}`);
  const index = new Map(words.map((word, i) => [word, i]));
  const bits = new Uint8Array(33);
  given.forEach((word, i) => {
    const value = index.get(word);
    if (value === undefined) throw new RangeError(`word ${i + 1}, "${word}", is not a recovery word: check its spelling`);
    for (let bit = 0; bit < 11; bit += 1) {
      if ((value >> (10 - bit)) & 1) {
        const at = i * 11 + bit;
        bits[at >> 3] |= 1 << (7 - (at & 7));
      }
    }
  });
  const seed = bits.slice(0, 32);
  const check = new Uint8Array(await crypto.subtle.digest('SHA-256', seed))[0];
  if (check !== bits[32]) {
    seed.fill(0);
    throw new RangeError('the words do not check out: one is wrong or out of order');
  }
  return seed;
}

/** The 24 recovery words for a 32-byte seed: the seed and the first byte of its SHA-256, 11 bits a word, from
 * `words` (the 2048-word list the node serves). `caddie login --recover` reads them. */
export async function recoveryWords(seed, words) {
  const check = new Uint8Array(await crypto.subtle.digest('SHA-256', seed))[0];
  const bits = [...seed, check];
  const out = [];
  for (let i = 0; i < 24; i += 1) {
    let value = 0;
    for (let bit = 0; bit < 11; bit += 1) {
      const at = i * 11 + bit;
      value = (value << 1) | ((bits[at >> 3] >> (7 - (at & 7))) & 1);
    }
    out.push(words[value]);
  }
  return out;
}

const KIND_NAMES = Object.fromEntries(Object.entries(KINDS).map(([name, tag]) => [tag, name]));

/** Big-endian reading, as the format writes; running past the end throws. */
class Reader {
  constructor(bytes) { this.bytes = bytes; this.at = 0; }
  take(n) {
    if (this.at + n > this.bytes.length) throw new RangeError('the payload ends early');
    const out = this.bytes.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }
  u8() { return this.take(1)[0]; }
  u16() { const b = this.take(2); return (b[0] << 8) | b[1]; }
  u32() { const b = this.take(4); return ((b[0] << 24) >>> 0) + ((b[1] << 16) | (b[2] << 8) | b[3]); }
  u64() { return this.take(8).reduce((value, b) => (value << 8n) | BigInt(b), 0n); }
}

function readValue(r) {
  const tag = r.u8();
  if (tag === 0) return null;
  if (tag === 1) return { text: new TextDecoder('utf-8', { fatal: true }).decode(r.take(r.u16())) };
  if (tag === 2) return { integer: BigInt.asIntN(64, r.u64()) };
  if (tag === 3) return { number: new DataView(r.take(8).slice().buffer).getFloat64(0) };
  if (tag === 4) return { bytes: hex(r.take(r.u32())) };
  throw new RangeError(`a field value tag ${tag} is not one of the format's`);
}

/** The changes of a payload that holds only sets (0x10) and roster adds (0x11): [{tag: 'set', kind, entity,
 * fields: {name: value}}, {tag: 'rosterAdd', game, player}] (`fields` has no prototype: any name is a field). Anything
 * else (a join, a score, a removal, another version, a field named twice, bytes left over) throws: a phone reads with
 * it what a node drafted before it signs it. */
export function readDraft(payload) {
  const r = new Reader(typeof payload === 'string' ? unhex(payload) : payload);
  if (r.u8() !== 1) throw new RangeError('the payload is not of version 1');
  const count = r.u8();
  if (count < 1) throw new RangeError('the payload holds no change');
  const changes = [];
  for (let i = 0; i < count; i += 1) {
    const tag = r.u8();
    if (tag === 0x10) {
      const kind = KIND_NAMES[r.u8()];
      if (!kind) throw new RangeError('a set names an unknown record kind');
      const entity = hex(r.take(8));
      const fields = Object.create(null);
      for (let n = r.u16(); n > 0; n -= 1) {
        const name = new TextDecoder('utf-8', { fatal: true }).decode(r.take(r.u8()));
        if (name in fields) throw new RangeError(`the field ${name} is set twice`);
        fields[name] = readValue(r);
      }
      changes.push({ tag: 'set', kind, entity, fields });
    } else if (tag === 0x11) {
      changes.push({ tag: 'rosterAdd', game: hex(r.take(8)), player: hex(r.take(8)) });
    } else {
      throw new RangeError(`a draft holds only sets and roster adds, not a change of tag 0x${tag.toString(16).padStart(2, '0')}`);
    }
  }
  if (r.at !== r.bytes.length) throw new RangeError('the payload has bytes after its changes');
  return changes;
}

/** Throws unless the set's fields are exactly those `expected` allows: each name mapped to a check of its value. */
function onlyFields(fields, expected) {
  const extra = Object.keys(fields).filter((name) => !Object.hasOwn(expected, name));
  if (extra.length) throw new RangeError(`the draft sets fields not asked for: ${extra.join(', ')}`);
  for (const [name, check] of Object.entries(expected)) {
    if (!check(fields[name])) {
      throw new RangeError(fields[name] === undefined && check !== absent ? `the draft leaves out ${name}`
        : `the draft's ${name} is not what was asked`);
    }
  }
}

const absent = (value) => value === undefined;
const isText = (text) => (value) => value?.text === text;
const isBytes = (bytes) => (value) => value?.bytes === bytes;

/** Checks a node's draft of a new player before the phone signs it: one set of the player `player` (an id the phone
 * chose) with the name, the user and the Handicap Index asked for (a null one left out), and no other field. */
export function checkPlayerDraft(payload, { player, name, user = null, index = null }) {
  const changes = readDraft(payload);
  const [set] = changes;
  if (changes.length !== 1 || set.kind !== 'player' || set.entity !== player) {
    throw new RangeError('the draft is not one new player record');
  }
  if (set.fields.name?.text !== undefined && set.fields.name.text !== name.trim()) {
    throw new RangeError(`the draft names the player "${set.fields.name.text}", not "${name.trim()}"`);
  }
  onlyFields(set.fields, {
    name: isText(name.trim()),
    user: user === null ? absent : isBytes(user),
    index: index === null ? absent : (value) => value?.number === index,
  });
  return changes;
}

/** Checks a node's check-in draft before the phone signs it: one set of the player `player` whose only field is the
 * phone's own `user` (the player claimed, nothing else changed). */
export function checkPlayerClaim(payload, { player, user }) {
  const changes = readDraft(payload);
  if (changes.length !== 1 || changes[0].kind !== 'player' || changes[0].entity !== player) {
    throw new RangeError('the check-in draft is not one change of the player asked for');
  }
  onlyFields(changes[0].fields, { user: isBytes(user) });
  return changes;
}

/** Checks a node's draft of a new game before the phone signs it: one set of the game `game` (an id the phone chose)
 * on `course` from `tee`, open, with the markers, formats, skins, sides and stake asked for and no other field, and a
 * roster add of that game for each of `players`, no others. `formats`, `skins`, `teams` ([side A ids, side B ids])
 * and `stake` left out (null) must be left out of the draft too; `markers` are {player, marker} pairs. */
export function checkGameDraft(payload, { game, course, tee, players, markers = [], formats = null, skins = null,
  teams = null, stake = null }) {
  const changes = readDraft(payload);
  const sets = changes.filter((c) => c.tag === 'set');
  if (sets.length !== 1 || sets[0].kind !== 'game' || sets[0].entity !== game) {
    throw new RangeError('the draft is not one new game record');
  }
  const { fields } = sets[0];
  if (fields.tee?.text !== undefined && fields.tee.text !== tee) throw new RangeError(`the draft names tee "${fields.tee.text}", not "${tee}"`);
  if (fields.course?.bytes !== undefined && fields.course.bytes !== course) throw new RangeError('the draft names another course');
  const expected = {
    course: isBytes(course), tee: isText(tee), finished: (value) => value?.integer === 0n,
    created: (value) => typeof value?.integer === 'bigint',
    formats: formats === null ? absent : (value) => typeof value?.text === 'string'
      && [...new Set(value.text.split(','))].sort().join() === [...new Set(formats.map((f) => f.toLowerCase()))].sort().join(),
    skins: skins === null ? absent : isText(skins),
    stake: stake === null ? absent : (value) => value?.number === stake,
  };
  for (const { player, marker } of markers) expected[`marker.${player}`] = isBytes(marker);
  if (teams !== null) {
    for (const player of players) {
      const side = teams[0].includes(player) ? 'A' : teams[1].includes(player) ? 'B' : null;
      expected[`team.${player}`] = side === null ? (value) => value === null : isText(side);
    }
  }
  onlyFields(fields, expected);
  const added = changes.filter((c) => c.tag === 'rosterAdd');
  if (added.some((c) => c.game !== game)) throw new RangeError('the draft adds players to another game');
  const roster = added.map((c) => c.player);
  if (roster.length !== players.length || new Set(roster).size !== roster.length || !players.every((p) => roster.includes(p))) {
    throw new RangeError('the draft\'s players are not the ones chosen');
  }
  return changes;
}
