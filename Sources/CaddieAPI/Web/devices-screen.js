// The Devices screen (this phone as a device of its own, another device of the user, a partner's sign-in code, the
// devices connected), the invites, and a group's check-in: loaded when one of them first opens (app.js); the
// service worker keeps it.

import { h, mount } from './render.js';
import { get, post, enc } from './api.js';
import * as card from './store.js';
import * as outbox from './outbox.js';
import * as local from './local.js';
import * as device from './device.js';
import * as ops from './ops.js';

// What app.js gives these screens (each exported function's first argument): its state, the page's main element,
// and the parts of the card's flow they use.
let state = null;
let main = null;
let nav = null;
let base = null;
let problem = null;
let say = null;
let send = null;
let signOne = null;
let partner = null;
let signOut = null;
let deviceWaits = null;

function use(app) {
  ({ state, main, nav, base, problem, say, send, signOne, partner, signOut, deviceWaits } = app);
}

/** The Devices screen. */
export async function devices(app) {
  use(app);
  return showSync();
}

/** "Invite a player". */
export async function invite(app) {
  use(app);
  return showInvite();
}

/** A group's check-in code for `game`. */
export async function checkInScreen(app, game) {
  use(app);
  return showCheckIn(game);
}

async function showSync() {
  const [sync, peers] = await Promise.all([get('/v1/sync'), get('/v1/peers')]);
  const peerNames = new Map(peers.map((p) => [p.device, p.user]));
  mount(main,
    nav('devices'),
    h('h2', {}, 'Devices'),
    phoneSection(),
    // The recovery words are shown here, outside the section, which is drawn again once the phone has joined.
    h('div', { id: 'phone-words' }),
    h('h3', {}, 'Connected now'),
    sync.sessions.length === 0 ? h('p', {}, 'No device is connected. Scores are kept here and merge when devices meet.')
      : h('ul', { class: 'list' }, sync.sessions.map((s) => h('li', {},
        // Named by the user the device speaks for, as the peers list knows it; the address is secondary.
        h('strong', {}, peerNames.has(s.device) ? `${peerNames.get(s.device)}'s device` : 'A device'),
        ` ${s.device.slice(0, 8)} at ${s.address}, found by ${s.foundBy}: `,
        s.inStep === true ? h('span', { class: 'tag live' }, '✓ holds the same state as this device')
          : s.inStep === false ? h('span', { class: 'tag' }, '… catching up') : h('span', { class: 'tag' }, 'comparing…')))),
    // Two devices may share two links (each dialled the other): a device is in step when any of its links says so.
    (() => {
      const devices = [...new Set(sync.sessions.map((s) => s.device))];
      const inStep = (device) => sync.sessions.some((s) => s.device === device && s.inStep === true);
      return devices.length > 0 && devices.every(inStep)
        ? h('p', { class: 'ok' }, `✓ Every connected device (${devices.length}) holds the same state as this one.`) : null;
    })(),
    h('h3', {}, 'State of each space'),
    h('ul', { class: 'list' }, sync.spaces.map((s) => h('li', {}, `${s.name}: ${s.ops} ops, state hash `,
      h('code', {}, s.stateHash.slice(0, 16)), '. Devices that show the same hash hold the same scores.'))),
    h('h3', {}, 'Known peers'),
    peers.length === 0 ? h('p', {}, 'No device seen yet.') : h('ul', { class: 'list' }, peers.map((p) => h('li', {},
      h('strong', {}, p.user), ` at ${p.address} (device ${p.device.slice(0, 8)}), found by ${p.foundBy}; last seen `,
      `${card.clock(p.lastSeen)}${p.lastSync ? `, last synced ${card.clock(p.lastSync)}` : ''}`))),
    partner() ? null : h('h3', {}, 'A partner\'s phone'),
    partner() ? null : h('p', {}, 'Sign another phone in to this node from here: it scans the code, opens the app, and '
      + 'becomes a device of its own under "This phone". It signs its own entries; the node signs nothing for it.'),
    partner() ? null : h('button', { type: 'button', id: 'signin-code', onclick: showSignInCode }, 'Show a sign-in code'),
    partner() ? null : h('div', { id: 'signin-made', 'aria-live': 'polite' }),
    h('h3', {}, 'A new player'),
    h('p', {}, 'A player with a device of their own (a node of their own) joins by an invite code.'),
    h('a', { href: '#/invite', class: 'button', id: 'invite-link' }, 'Invite a player'),
    h('button', { type: 'button', onclick: signOut }, 'Sign this browser out'));
}

/** A one-time sign-in code for a partner's phone: the link `caddie web link` prints, as a QR code, addressed as
 * this browser reached the node. With a trust page, a phone new to the node scans a first code that opens it (plain
 * HTTP, no secret in it) and the sign-in code once it trusts the node: the sign-in never passes through plain HTTP. */
async function showSignInCode() {
  const target = document.getElementById('signin-made');
  try {
    const made = await post('/v1/signin-links', { space: state.space.space });
    const until = new Date(Date.now() + made.expiresInSeconds * 1000).toTimeString().slice(0, 5);
    const code = (svg, alt) => svg ? h('img', { class: 'qr', src: `data:image/svg+xml;utf8,${encodeURIComponent(svg)}`, alt }) : null;
    mount(target, h('section', { class: 'signin-qr', id: 'signin-qr', tabindex: '-1', 'aria-label': 'Sign-in code' },
      made.trustUrl ? h('div', { id: 'trust-step' },
        h('h4', {}, '1. New to this node? Trust it first'),
        code(made.trustQr, 'QR code of the page that installs the node\'s authority'),
        h('p', {}, 'A phone that has not trusted this node yet scans this code first and follows the page. It holds no sign-in.'),
        h('p', {}, h('code', { class: 'invite-code', id: 'trust-url' }, made.trustUrl))) : null,
      made.trustUrl ? h('h4', {}, '2. Sign in') : null,
      code(made.qr, 'QR code of the sign-in link shown below'),
      h('p', {}, `Scan it with the partner's phone camera before ${until}; it signs one browser in, once.`),
      h('p', {}, h('code', { class: 'invite-code', id: 'signin-url' }, made.url))));
    document.getElementById('signin-qr')?.focus();
    say('Sign-in code shown: scan it with the other phone.');
  } catch (error) {
    mount(target, problem(error));
  }
}

// MARK: This phone

/** "This phone": whether entries made here are signed here (a device of its own) or by the node, and the way to
 * make this phone a device: a user and a device key made here, the 24 recovery words shown once, the join. */
function phoneSection() {
  const record = state.device;
  const space = state.space;
  const section = h('section', { 'aria-labelledby': 'phone-title', id: 'phone' }, h('h3', { id: 'phone-title' }, 'This phone'));
  const message = h('div', { id: 'phone-message', 'aria-live': 'assertive' });
  if (record?.spaces[space.space]) {
    section.append(h('p', { id: 'phone-identity' }, `This phone is a device of its own: ${record.name}'s device `,
      h('code', {}, record.device.slice(0, 8)), ' (user ', h('code', {}, record.user.slice(0, 8)),
      '). It signs every entry made here, keeps it through dead zones, and the audit names this phone.'));
    if (record.userKey) section.append(addDeviceForm());
    return section;
  }
  if (record) {
    section.append(h('p', {}, `This phone is ${record.name}'s device `, h('code', {}, record.device.slice(0, 8)),
      ` but has not joined ${space.name} yet.`),
    h('button', { type: 'button', class: 'primary', id: 'phone-join', onclick: () => joinSpace(message) }, `Join ${space.name}`),
    message);
    return section;
  }
  const name = h('input', { id: 'phone-name', name: 'name', required: true, maxlength: 64, autocomplete: 'name' });
  const sameName = h('div', { id: 'phone-same' });
  section.append(
    partner()
      ? h('p', { id: 'phone-partner' }, 'This phone is signed in as a partner\'s: it can read the round, and enters scores '
        + 'once it is a device of its own. Make it yours: it gets keys of its own, signs what you enter, and keeps '
        + 'entries through dead zones.')
      : h('p', {}, `Entries made in this browser are signed now by ${state.me?.name ?? 'the node'}'s node, so the audit names `
        + `${state.me?.name ?? 'its owner'}. Make this phone a device of its own: it gets keys of its own, signs what you `
        + 'enter, and keeps entries through dead zones.'),
    h('form', { onsubmit: (event) => { event.preventDefault(); makeDevice(name.value.trim(), message, sameName); } },
      h('label', { for: 'phone-name' }, 'Your name'), name,
      h('button', { type: 'submit', class: 'primary', id: 'phone-make' }, 'Make this phone my device')),
    sameName,
    restoreForm(message),
    fromOtherPhone(message),
    message);
  return section;
}

/** For a golfer whose user is on another phone already: this phone asks the node for a code and shows it; that
 * phone, given the code (Devices, "Add another device of mine"), signs this phone's certificate with the user key;
 * this phone checks it and, once the golfer agrees to the name, joins as that user's device. */
function fromOtherPhone(message) {
  const shown = h('div', { id: 'ask-shown', 'aria-live': 'polite' });
  return h('details', { id: 'phone-ask' },
    h('summary', {}, 'I have Caddie on another phone or a laptop: add this one from it'),
    h('p', {}, 'This phone shows a code; enter it on your other phone under Devices, "Add another device of mine", or on '
      + 'the laptop that runs this node: caddie device approve CODE. No recovery words needed.'),
    h('button', { type: 'button', class: 'primary', id: 'ask-go', onclick: () => askForDevice(shown, message) },
      'Show a code for my other device'),
    shown);
}

async function askForDevice(shown, message) {
  try {
    if (!window.isSecureContext || !crypto.subtle) {
      throw new Error('this page is not a secure context: open the node over HTTPS (caddie web link) to make keys here');
    }
    const pending = await device.newDeviceKey();
    const asked = await post(`${base()}/device-requests`, { device: pending.device });
    mount(shown, h('p', {}, 'On your other phone, under Devices, "Add another device of mine", enter (or on the laptop '
      + 'that runs this node: caddie device approve and the code):'),
      h('p', { class: 'device-code', id: 'ask-code' }, asked.code),
      h('p', {}, 'It shows this phone as ', h('code', { id: 'ask-device' }, pending.device.slice(0, 8)),
        `. The code works until ${new Date(asked.expires).toTimeString().slice(0, 5)}. Waiting for your other device…`));
    const answer = await waitForApproval(asked, shown);
    if (!answer) return;
    const record = await device.adopted(pending, answer);
    mount(shown, h('p', { id: 'ask-confirm' }, `Your other device added this one as ${record.name}'s device (user `,
      h('code', {}, record.user.slice(0, 8)), '). Is that you?'),
    h('button', { type: 'button', class: 'primary', id: 'ask-accept', onclick: async () => {
      try {
        await local.writeDevice(record);
        state.device = record;
        mount(shown);
        await joinSpace(message);
      } catch (error) {
        mount(message, problem(error));
      }
    } }, `Yes, I am ${record.name}`),
    h('button', { type: 'button', id: 'ask-refuse', onclick: () => mount(shown, h('p', {}, 'Nothing changed on this phone.')) },
      'No'));
    document.getElementById('ask-accept')?.focus();
  } catch (error) {
    mount(message, problem(error));
  }
}

/** Waits until a phone of the user has answered the code (the node says so on the live stream), the code has
 * expired, or the code is no longer on screen. */
async function waitForApproval(asked, shown) {
  while (Date.now() < asked.expires && shown.isConnected) {
    // Woken when the node says a phone answered this device's code (the live stream's device-request event), when
    // the stream opens again (an event may have been missed), after 30 s in case the stream is held up on the way,
    // or when the code ends. Listening starts before the read, so an answer between the two is not missed.
    let wake;
    const woken = new Promise((resolve) => {
      wake = (device) => { if (device === null || device === asked.device) resolve(); };
    });
    deviceWaits.add(wake);
    let answer = null;
    try {
      answer = await get(`${base()}/device-requests/${encodeURIComponent(asked.code)}`);
    } catch (error) {
      if (error.status !== 0) {  // no node answers just now: ask again when it does; anything else ends the wait
        deviceWaits.delete(wake);
        throw error;
      }
    }
    if (answer?.approved || !shown.isConnected) {
      deviceWaits.delete(wake);
      return answer?.approved ? answer : null;
    }
    const timer = window.setTimeout(() => wake(null), Math.max(0, Math.min(30000, asked.expires - Date.now())));
    await woken;
    window.clearTimeout(timer);
    deviceWaits.delete(wake);
  }
  if (shown.isConnected) mount(shown, h('p', {}, 'The code has expired: show a new one.'));
  return null;
}

/** On a phone that holds its user key: another phone's code, the device it names, and the user's certificate of it. */
function addDeviceForm() {
  const code = h('input', { id: 'add-code', name: 'code', required: true, maxlength: 12, autocomplete: 'off',
    autocapitalize: 'characters', spellcheck: 'false' });
  const found = h('div', { id: 'add-found', 'aria-live': 'polite' });
  return h('details', { id: 'phone-add' },
    h('summary', {}, 'Add another device of mine'),
    h('form', { onsubmit: async (event) => {
      event.preventDefault();
      try {
        const asked = await get(`${base()}/device-requests/${encodeURIComponent(code.value.trim())}`);
        mount(found, h('p', {}, 'A phone asks to become your device: it shows ', h('code', { id: 'add-device' },
          asked.device.slice(0, 8)), '. Add it only if your new phone shows the same.'),
        h('button', { type: 'button', class: 'primary', id: 'add-go', onclick: async () => {
          try {
            await post(`${base()}/device-requests/${encodeURIComponent(asked.code)}/approval`,
              await device.certify(state.device, asked.device));
            mount(found, h('p', { class: 'ok', id: 'add-done' }, 'Added: the new phone finishes joining by itself.'));
            say('The new phone is now your device.');
          } catch (error) {
            mount(found, problem(error));
          }
        } }, 'Yes, add it'));
      } catch (error) {
        mount(found, problem(error));
      }
    } },
    h('label', { for: 'add-code' }, 'The code your new phone shows'), code,
    h('button', { type: 'submit', id: 'add-look' }, 'Look it up')),
    found);
}

/** For a golfer who has a Caddie user already (another phone, or `caddie login` on a laptop): their 24 recovery
 * words make this phone another device of that same user, so the group sees one golfer, not two of one name. */
function restoreForm(message) {
  const name = h('input', { id: 'restore-name', name: 'name', required: true, maxlength: 64, autocomplete: 'name' });
  const words = h('textarea', { id: 'restore-words', rows: 4, required: true, autocomplete: 'off', autocapitalize: 'none',
    spellcheck: 'false' });
  return h('details', { id: 'phone-restore' },
    h('summary', {}, 'I have a Caddie user already: my 24 recovery words'),
    h('form', { onsubmit: (event) => {
      event.preventDefault();
      const typed = words.value;
      words.value = '';  // the words leave the page at once, whatever happens next
      restoreDevice(name.value.trim(), typed, message);
    } },
    h('label', { for: 'restore-name' }, 'Your name, as the group knows you'), name,
    h('label', { for: 'restore-words' }, 'Your 24 recovery words, in order'), words,
    h('button', { type: 'submit', class: 'primary', id: 'restore-go' }, 'Make this phone another device of mine')));
}

async function restoreDevice(name, typed, message) {
  if (!name) return mount(message, problem(new Error('give your name: the group sees it beside your entries')));
  try {
    if (!window.isSecureContext || !crypto.subtle) {
      throw new Error('this page is not a secure context: open the node over HTTPS (caddie web link) to make keys here');
    }
    const record = await device.restore(name, typed, await get('/v1/recovery-words'));
    await local.writeDevice(record);
    state.device = record;
    await joinSpace(message);
  } catch (error) {
    mount(message, problem(error));
  }
}

/** A name as two people would read it alike: "Dev", " dev ", "DEV" are one name. */
const folded = (text) => text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

async function makeDevice(name, message, warnAt, anyway = false) {
  if (!name) return mount(message, problem(new Error('give your name: the group sees it beside your entries')));
  try {
    if (!window.isSecureContext || !crypto.subtle) {
      throw new Error('this page is not a secure context: open the node over HTTPS (caddie web link) to make keys here');
    }
    // One golfer, one user: a name the group knows already is most likely this golfer's own user.
    const known = anyway ? [] : (await get(`${base()}/members`)).filter((m) => folded(m.name) === folded(name));
    mount(warnAt);
    if (known.length > 0) {
      mount(warnAt, h('div', { class: 'panel', id: 'phone-same-name', role: 'alert', tabindex: '-1' },
        h('p', {}, `${known[0].name} is in ${state.space.name} already (user `, h('code', {}, known[0].user.slice(0, 8)),
          `, ${known[0].devices} device${known[0].devices === 1 ? '' : 's'}). If that is you, make this phone another device of `
          + 'yours: "I have Caddie on another phone" below, or your 24 recovery words. A new user would put two users called '
          + `${name} in the group.`),
        h('button', { type: 'button', id: 'phone-same-anyway', onclick: () => makeDevice(name, message, warnAt, true) },
          `I am another ${name}: make a new user`)));
      document.getElementById('phone-ask')?.setAttribute('open', '');
      document.getElementById('phone-same-name').focus();
      return;
    }
    const list = await get('/v1/recovery-words');
    const { record, phrase } = await device.create(name, list);
    await local.writeDevice(record);
    state.device = record;
    mount(document.getElementById('phone-words'), h('section', { class: 'panel', role: 'dialog', 'aria-labelledby': 'words-title' },
      h('h3', { id: 'words-title', tabindex: '-1' }, 'Your 24 recovery words'),
      h('p', {}, 'Write them down now, in this order: they are shown once and kept nowhere. With them, ',
        h('code', {}, 'caddie login --recover'), ' brings your user back on another device; without them a lost phone\'s user is gone.'),
      h('ol', { class: 'words', id: 'recovery-words' }, phrase.map((word) => h('li', {}, word))),
      h('button', { type: 'button', id: 'words-done', onclick: () => mount(document.getElementById('phone-words')) },
        'I have written them down')));
    document.getElementById('words-title').focus();
    await joinSpace(message);
  } catch (error) {
    mount(message, problem(error));
  }
}

/** A group's check-in code (docs/competitions.md): the phone says which player it is, becomes their device and
 * links the player to its user, signed here; a player checked in already is not offered. */
async function showCheckIn(game) {
  const space = state.space.space;
  const c = await get(`${base()}/games/${enc(game)}/card`);
  const joined = state.device?.spaces[space];
  const mine = joined ? c.players.find((p) => p.user === state.device.user) : null;
  if (mine || state.pending.some((e) => e.kind === 'claim' && e.game === game && !e.refused)) {
    window.location.hash = `#/game/${game}`;
    return;
  }
  const message = h('div', { id: 'checkin-message', 'aria-live': 'assertive' });
  mount(main, nav('card'),
    h('h2', {}, 'Check in'),
    h('p', {}, `${c.courseName ?? 'The course'}, tee ${c.tee}. Which of you is this phone? It becomes your device: it `
      + 'signs what you enter and keeps it through dead zones.'),
    h('ul', { class: 'list stack', 'aria-label': 'The group' }, c.players.map((p) => h('li', {},
      p.user ? h('span', { class: 'tag done' }, `${p.name}: checked in`)
        : h('button', { type: 'button', class: 'primary', id: `checkin-${p.player}`, onclick: () => checkIn(game, p, message) },
          `I am ${p.name}`)))),
    joined ? h('p', { class: 'hint' }, `This phone is ${state.device.name}'s device already: it checks in for that player only.`) : null,
    h('div', { id: 'phone-same' }),
    h('div', { id: 'phone-words' }),
    message);
}

async function checkIn(game, player, message) {
  const space = state.space.space;
  try {
    if (!state.device?.spaces[space]) {
      await makeDevice(player.name, message, document.getElementById('phone-same'));
      if (!state.device?.spaces[space]) return;  // a question was asked, or the phone could not join: said above
      await send();
    }
    const draft = await post(`${base()}/player-claims`, { player: player.player, user: state.device.user });
    if (draft.payload) {
      ops.checkPlayerClaim(ops.unhex(draft.payload), { player: player.player, user: state.device.user });
      await signOne(ops.unhex(draft.payload), { kind: 'claim', game, player: player.player });
      await send();
    }
    say(`This phone is ${player.name}'s device: checked in.`);
    if (document.getElementById('recovery-words')) {
      document.getElementById('words-done')?.addEventListener('click', () => { window.location.hash = `#/game/${game}`; });
      mount(message, h('p', { class: 'tag done', id: 'checked-in' }, `Checked in as ${player.name}. Write the words down, then the card opens.`));
      return;
    }
    window.location.hash = `#/game/${game}`;
  } catch (error) {
    mount(message, problem(error));
  }
}

/** Joins the shown space with this phone's device: the node admits it (a membership proof), the phone signs its
 * join, and sends it like any entry. */
async function joinSpace(message) {
  const space = state.space.space;
  try {
    const { proof } = await post(`${base()}/admissions`, await device.admission(state.device, partner() ? state.me.session : null));
    if (partner()) state.me = await get('/v1/whoami');
    await device.sign(space, [{ payload: device.joinPayload(state.device, proof) }], { joining: true }, async (record, [op]) => {
      const made = outbox.signed({ space }, op, Date.now());
      await local.keepSigned(record, [made]);
      state.device = record;
      state.pending = outbox.ordered([...state.pending, made]);
    });
    await send();
    const identity = document.getElementById('phone');
    if (identity) identity.replaceWith(phoneSection());
    say(`This phone joined ${state.space.name} as ${state.device.name}'s device.`);
  } catch (error) {
    mount(message, problem(error));
  }
}

// MARK: Invites

const INVITE_LIFETIMES = [['2 hours', 7200], ['24 hours', 86400], ['3 days', 259200]];

/** "Invite a player": make a ticket (redeemed at this node), show it as a QR code, and list what each invite did. */
async function showInvite(made) {
  const invites = await get(`${base()}/invites`);
  const message = h('div', { 'aria-live': 'assertive' });

  async function make(event) {
    event.preventDefault();
    try {
      const invite = await post(`${base()}/invites`, {
        uses: Number(document.getElementById('invite-uses').value),
        expiresInSeconds: Number(document.getElementById('invite-expires').value),
      });
      await showInvite(invite);
      say('Invite made: show the QR code to the new player.');
      document.getElementById('invite-made')?.focus();
    } catch (error) { mount(message, problem(error)); }
  }

  async function revoke(id) {
    try {
      await post(`${base()}/invites/${enc(id)}/revoke`);
      await showInvite();
      say('Invite revoked: it admits nobody now.');
    } catch (error) { mount(message, problem(error)); }
  }

  const when = (ms) => `${new Date(ms).toLocaleDateString()} ${card.clock(`${ms}.0`)}`;
  mount(main,
    nav('devices'),
    h('h2', {}, 'Invite a player'),
    h('p', { class: 'hint' }, 'The code works only at this device, for as many devices as you choose, until it expires. ',
      'It does not carry the group\'s key, so a code that reaches the wrong person is harmless once it is used or revoked.'),
    h('form', { class: 'stack', onsubmit: make },
      h('label', { for: 'invite-uses' }, 'Devices it admits'),
      h('select', { id: 'invite-uses' }, [1, 2, 3, 4, 5, 6, 7, 8].map((n) => h('option', { value: n }, String(n)))),
      h('label', { for: 'invite-expires' }, 'Works for'),
      h('select', { id: 'invite-expires' }, INVITE_LIFETIMES.map(([label, seconds]) =>
        h('option', { value: seconds, selected: seconds === 86400 }, label))),
      h('button', { type: 'submit', class: 'primary' }, 'Make an invite')),
    message,
    made ? h('section', { class: 'invite-made', id: 'invite-made', tabindex: '-1', 'aria-label': 'The invite just made' },
      made.qr ? h('img', { class: 'qr', src: `data:image/svg+xml;utf8,${encodeURIComponent(made.qr)}`,
        alt: 'QR code of the invite code shown below' }) : null,
      h('p', {}, `Admits ${made.uses === 1 ? 'one device' : `${made.uses} devices`} until ${when(made.expiresAt)}. `,
        'On the new player\'s device, on this Wi-Fi, with this node running:'),
      h('p', {}, h('code', { class: 'invite-code' }, `caddie space join ${made.invite}`))) : null,
    h('h3', {}, 'Invites made here'),
    invites.length === 0 ? h('p', {}, 'None yet.') : h('ul', { class: 'list invites' }, invites.map((invite) => h('li', {},
      h('code', {}, invite.id.slice(0, 8)), ' ',
      h('span', { class: `tag${invite.state === 'open' ? ' live' : ''}` }, invite.state), ' ',
      `${invite.used} of ${invite.uses} used, expires ${when(invite.expiresAt)}`,
      invite.admitted.length ? `; admitted ${invite.admitted.join(', ')}` : '',
      invite.state === 'open' ? [' ', h('button', { type: 'button', class: 'quiet', onclick: () => revoke(invite.id),
        'aria-label': `Revoke invite ${invite.id.slice(0, 8)}` }, 'Revoke')] : null))));
}
