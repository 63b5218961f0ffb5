// The phone as a device of the group: a user key and a device key made here with WebCrypto's Ed25519 and kept in
// IndexedDB as keys that cannot be read out, the user's certificate of the device, and per space the head of this
// device's log (seq, hash, clock). Ops are signed here (ops.js); the node checks them as it checks a peer's. Signing
// takes a lock across the phone's tabs, so two saves never sign two different ops at one seq (a fork).

import * as ops from './ops.js';
import * as local from './local.js';

const ZERO = '00'.repeat(32);

/** The phone's device record, or null while entries are signed by the node the browser is signed in to. */
export function me() {
  return local.device();
}

/** Makes a user and a device for `name`: the user's 24 recovery words are returned to be shown once, and are not
 * kept. `words` is the 2048-word list (GET /v1/recovery-words). */
export async function create(name, words) {
  const seed = crypto.getRandomValues(new Uint8Array(32));
  const phrase = await ops.recoveryWords(seed, words);
  return { record: await certified(name, seed), phrase };
}

/** Makes this phone a new device of an existing user, from that user's 24 recovery words (`text`, as typed): the
 * same user key, so the group sees one golfer, not a second user of the same name. */
export async function restore(name, text, words) {
  return certified(name, await ops.seedFromWords(text, words));
}

/** A device key for a phone that becomes another device of a user from that user's other phone: made here, and
 * never readable out. The user key stays on the other phone; this one gets only its certificate. */
export async function newDeviceKey() {
  const pair = await crypto.subtle.generateKey({ name: 'Ed25519' }, false, ['sign', 'verify']);
  return { device: ops.hex(new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey))), deviceKey: pair.privateKey };
}

/** The certificate this phone's user signs for another device of theirs (`device`, hex). Only a phone that holds its
 * user key (the one the user was made on, or restored with the recovery words) can sign it. */
export async function certify(record, device) {
  if (!record?.userKey) {
    throw new Error('this phone was added from another phone and does not hold your user key: add the new phone from '
      + 'the phone you made your user on, or use your 24 recovery words');
  }
  const certifiedAt = Date.now();
  const signature = await crypto.subtle.sign({ name: 'Ed25519' }, record.userKey,
    ops.certificateMessage(ops.unhex(record.user), ops.unhex(device), certifiedAt));
  return { user: record.user, certifiedAt, certificate: ops.hex(new Uint8Array(signature)) };
}

/** The device record of this phone once a phone of its user has certified it (`approval`, as the node passed it
 * on): the certificate is checked here before the phone takes it. No user key: this phone cannot add others. */
export async function adopted(pending, approval) {
  const user = await crypto.subtle.importKey('raw', ops.unhex(approval.user), { name: 'Ed25519' }, false, ['verify']);
  const verified = await crypto.subtle.verify({ name: 'Ed25519' }, user, ops.unhex(approval.certificate),
    ops.certificateMessage(ops.unhex(approval.user), ops.unhex(pending.device), approval.certifiedAt));
  if (!verified) throw new Error('the certificate passed on for this phone does not verify: ask for a new code');
  return { id: 'me', name: approval.name, user: approval.user, userKey: null, device: pending.device,
    deviceKey: pending.deviceKey, certifiedAt: approval.certifiedAt, certificate: approval.certificate, spaces: {} };
}

/** A device record: the user key from `seed` (which is zeroed), a new device key, and the user's certificate. */
async function certified(name, seed) {
  const user = await ops.keyFromSeed(seed);
  seed.fill(0);
  const pair = await crypto.subtle.generateKey({ name: 'Ed25519' }, false, ['sign', 'verify']);
  const device = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
  const certifiedAt = Date.now();
  const certificate = new Uint8Array(await crypto.subtle.sign({ name: 'Ed25519' }, user.key,
    ops.certificateMessage(user.publicKey, device, certifiedAt)));
  return { id: 'me', name, user: ops.hex(user.publicKey), userKey: user.key, device: ops.hex(device),
    deviceKey: pair.privateKey, certifiedAt, certificate: ops.hex(certificate), spaces: {} };
}

/** What the node needs to admit the device (POST /v1/spaces/{space}/admissions). On a partner's session
 * (`session` is its id, from GET /v1/whoami) the device also signs that session, which makes the session this
 * device's user's: caddie-web-session-v1, the session id, the user key, the device key. */
export async function admission(record, session = null) {
  const made = { user: record.user, device: record.device, certifiedAt: record.certifiedAt, certificate: record.certificate };
  if (session) {
    const message = ops.sessionMessage(session, record.user, record.device);
    made.sessionProof = ops.hex(new Uint8Array(await crypto.subtle.sign({ name: 'Ed25519' }, record.deviceKey, message)));
  }
  return made;
}

/** Runs `work` holding the phone's signing lock (all tabs), so that the log head it reads is the newest. */
function locked(work) {
  if (navigator.locks?.request) return navigator.locks.request('caddie-signing', work);
  const run = (locked.chain ?? Promise.resolve()).then(work, work);
  locked.chain = run.catch(() => {});
  return run;
}

/** Signs the next ops of this device in `space`, one for each of `items` ({payload, pred}), in order, and hands
 * them to `keep(record, signed)`, which must write the new record and the ops together (one IndexedDB
 * transaction); only then has this device's head moved. `seenClocks` are the clocks of the values the entries saw:
 * each op is stamped after them and after this device's last op. */
export function sign(space, items, { seenClocks = [], joining = false } = {}, keep) {
  return locked(async () => {
    const record = await local.device();
    if (!record) throw new Error('this phone is not a device of its own yet');
    let head = record.spaces[space];
    if (!head && !joining) throw new Error('this phone has not joined this space yet');
    const now = Date.now();
    let last = head ? BigInt(head.clock) : 0n;
    for (const clock of seenClocks) if (clock > last && ops.counts(clock, now)) last = clock;
    const made = [];
    for (const { payload, pred = [] } of items) {
      const seq = head ? BigInt(head.seq) + 1n : 1n;
      const hlc = ops.nextClock(last, now);
      const unsigned = ops.unsignedOp({ space, device: record.device, seq, prev: head ? head.hash : ZERO, hlc, pred, payload });
      const op = await ops.signOp(unsigned, record.deviceKey);
      head = { seq: String(seq), hash: ops.hex(ops.opHash(op)), clock: String(hlc) };
      last = hlc;
      made.push({ op: ops.hex(op), seq: String(seq), name: `${record.device}:${seq}` });
    }
    const next = { ...record, spaces: { ...record.spaces, [space]: head } };
    await keep(next, made);
    return made;
  });
}

/** The join op of this device in `space`, with the node's membership proof. */
export function joinPayload(record, proof) {
  return ops.joinPayload({ user: record.user, certifiedAt: record.certifiedAt, certificate: record.certificate,
    proof, name: record.name });
}
