// The Guide screen, loaded when it first opens (app.js); with no node, guide.js works the distances out.

import { h, mount } from './render.js';
import { get, post, enc } from './api.js';
import * as outbox from './outbox.js';

const guide = {
  watch: null, heading: null, busy: false, player: null, audio: null, arrived: null, spoken: '', spokenAt: 0,
  speak: false, beacon: false, competition: false, metres: false,
  pack: null, // the game's hole geometry (GET .../guidance-pack), to guide from while no node answers
  lib: null,  // guide.js, loaded when Guide first opens (the service worker keeps it for a dead zone)
};

/** What app.js gives this screen (showGuide's argument). */
let app = null;

/** The guidance pack of a game: from the node, else the copy the phone kept (api.js); null when neither has one. */
async function guidancePack(game) {
  if (guide.pack?.game === game) return guide.pack;
  try {
    guide.pack = { game, ...(await get(`${app.base()}/games/${enc(game)}/guidance-pack`)) };
  } catch (error) { return null; }
  return guide.pack;
}

/** Guidance worked out on this phone from the kept pack, for the hole the player is on (entries waiting on the
 * phone count as played), when no node answers. Null without a pack or a green for that hole. */
function guidanceOnPhone(position) {
  const { state } = app;
  const c = state.card;
  const player = c.players.find((p) => p.player === guide.player);
  if (!guide.lib || !guide.pack || guide.pack.game !== c.game || !player) return null;
  const waiting = new Set([...outbox.ofGame(state.pending, state.space.space, c.game).values()]
    .filter((e) => e.player === player.player && !e.refused).map((e) => e.hole));
  const hole = guide.lib.currentHole(c.holes, player.cells, waiting);
  return guide.lib.holeGuidance(guide.pack, hole, position, { heading: guide.heading, metres: guide.metres });
}

/** Draws the Guide screen for the game in progress. */
export async function showGuide(given) {
  app = given;
  const { main, nav, state, loadCard, myPlayer } = app;
  await loadCard('current');
  const c = state.card;
  await guidancePack(c.game);
  guide.lib = guide.lib ?? await import('./guide.js').catch(() => null);
  guide.player = guide.player ?? (myPlayer(c) ?? c.players[0]).player;
  const toggle = (key, label, hint) => h('div', { class: 'check' },
    h('input', { type: 'checkbox', id: `g-${key}`, checked: guide[key], onchange: (event) => {
      guide[key] = event.target.checked;
      if (key === 'beacon') guide.beacon ? startBeacon() : stopBeacon();
    } }),
    h('label', { for: `g-${key}` }, label, hint ? h('span', { class: 'hint' }, ` (${hint})`) : null));
  mount(main,
    nav('guide'),
    h('h2', {}, 'Guidance'),
    h('p', { class: 'hint' }, 'Distances from where this phone is to the green and the hazards of the hole the player is on.'),
    h('label', { for: 'g-player' }, 'Player'),
    h('select', { id: 'g-player', onchange: (event) => { guide.player = event.target.value; guide.arrived = null; } },
      c.players.map((p) => h('option', { value: p.player, selected: p.player === guide.player }, p.name))),
    toggle('speak', 'Speak the callouts'),
    toggle('beacon', 'Audio beacon', 'a tone from the direction of the green: use headphones'),
    toggle('competition', 'Competition mode', 'Rules of Golf 4.3a: distance and direction only'),
    toggle('metres', 'Metres instead of yards'),
    h('button', { type: 'button', id: 'guide-start', class: 'primary', onclick: () => (guide.watch === null ? startGuide() : stopGuide()) },
      guide.watch === null ? 'Start guidance' : 'Stop guidance'),
    h('p', { id: 'callout', class: 'callout', 'aria-live': 'polite' }),
    h('p', { id: 'guide-source', class: 'hint' }),
    h('div', { id: 'arrival', 'aria-live': 'assertive' }),
    h('ul', { id: 'targets', class: 'list targets' }));
}

function startGuide() {
  const { problem } = app;
  if (!navigator.geolocation) return mount(document.getElementById('callout'), problem(new Error('this browser gives no position')));
  guide.watch = navigator.geolocation.watchPosition(onPosition,
    (error) => {
      const callout = document.getElementById('callout');
      if (callout) mount(callout, problem(new Error(`no position (${error.message}): allow location for this page`)));
    },
    { enableHighAccuracy: true, maximumAge: 1000, timeout: 20000 });
  const onOrientation = (event) => {
    if (typeof event.webkitCompassHeading === 'number') guide.heading = event.webkitCompassHeading;
    else if (event.absolute && typeof event.alpha === 'number') guide.heading = (360 - event.alpha) % 360;
  };
  guide.onOrientation = onOrientation;
  const listen = () => {
    window.addEventListener('deviceorientationabsolute', onOrientation);
    window.addEventListener('deviceorientation', onOrientation);
  };
  if (typeof DeviceOrientationEvent !== 'undefined' && typeof DeviceOrientationEvent.requestPermission === 'function') {
    DeviceOrientationEvent.requestPermission().then((answer) => { if (answer === 'granted') listen(); }).catch(() => {});
  } else {
    listen();
  }
  if (guide.beacon) startBeacon();
  const button = document.getElementById('guide-start');
  if (button) button.textContent = 'Stop guidance';
}

/** Stops watching the position and the beacon (the app calls it when another screen opens: no GPS drain behind the
 * card). */
export function stopGuide() {
  if (guide.watch !== null) navigator.geolocation.clearWatch(guide.watch);
  guide.watch = null;
  if (guide.onOrientation) {
    window.removeEventListener('deviceorientationabsolute', guide.onOrientation);
    window.removeEventListener('deviceorientation', guide.onOrientation);
  }
  stopBeacon();
  const button = document.getElementById('guide-start');
  if (button) button.textContent = 'Start guidance';
}

async function onPosition(position) {
  // A position that arrives after guidance stopped (the screen was left) draws nothing.
  if (guide.busy || guide.watch === null) return;
  guide.busy = true;
  const { state, problem } = app;
  try {
    const { latitude, longitude } = position.coords;
    const answer = await post(`${app.base()}/guidance/hole`, {
      latitude, longitude, game: state.game, player: guide.player, metres: guide.metres, competition: guide.competition,
      ...(guide.heading !== null ? { heading: guide.heading, headingSource: 'compass' } : {}),
    });
    showGuidance(answer);
  } catch (error) {
    // No node: the phone works the distances out itself from the hole geometry it kept.
    const own = error.status === 0 ? guidanceOnPhone(position.coords) : null;
    if (own) return showGuidance(own);
    const list = document.getElementById('targets');
    if (list) mount(list, h('li', {}, problem(error)));
  } finally {
    guide.busy = false;
  }
}

function showGuidance(answer) {
  const unit = guide.metres ? 'm' : 'yd';
  const list = document.getElementById('targets');
  if (!list) return;
  mount(list, answer.targets.map((t) => h('li', { class: 'target' },
    h('strong', {}, t.target), ' ',
    h('span', { class: 'distance' }, `${Math.round(guide.metres ? t.distanceMeters : t.distanceYards)} ${unit}`),
    t.relativeAngle !== null ? h('span', { class: 'hint' }, ` · ${Math.round(Math.abs(t.relativeAngle))}° ${t.relativeAngle < 0 ? 'left' : 'right'}`) : null)));
  const main = answer.targets[0];
  const callout = document.getElementById('callout');
  callout.textContent = `Hole ${answer.hole}${answer.par ? `, par ${answer.par}` : ''}. ${main.callout}`;
  const where = document.getElementById('guide-source');
  if (where) where.textContent = answer.onPhone ? 'No node answers: distances worked out on this phone from the hole it kept.' : '';
  const now = Date.now();
  if (guide.speak && 'speechSynthesis' in window && (main.callout !== guide.spoken || now - guide.spokenAt > 15000) && now - guide.spokenAt > 6000) {
    guide.spoken = main.callout;
    guide.spokenAt = now;
    window.speechSynthesis.speak(new SpeechSynthesisUtterance(main.callout));
  }
  updateBeacon(main);
  const arrival = document.getElementById('arrival');
  if (answer.onGreen && guide.arrived !== answer.hole) {
    guide.arrived = answer.hole;
    mount(arrival, h('div', { class: 'panel', role: 'alert' },
      h('p', {}, h('strong', {}, `On the green of hole ${answer.hole}.`), ' Enter the hole\'s scores when it is finished.'),
      h('button', { type: 'button', class: 'primary', onclick: () => {
        app.state.hole = answer.hole;
        window.location.hash = `#/game/${app.state.game}`;
      } }, `Enter hole ${answer.hole}`)));
  } else if (!answer.onGreen) {
    mount(arrival);
  }
}

// The beacon: a pulsing tone panned towards the target and muffled as it moves behind, louder on axis, following
// the node's beacon bands (on axis within 15°, near axis within 55°, off axis within 125°, then behind; dimmed
// with no heading).
const BANDS = {
  onAxis: { gain: 0.3, cutoff: 5000 }, nearAxis: { gain: 0.2, cutoff: 2500 }, offAxis: { gain: 0.12, cutoff: 1200 },
  behind: { gain: 0.06, cutoff: 500 }, dimmed: { gain: 0.04, cutoff: 400 },
};

function startBeacon() {
  if (guide.audio || !(window.AudioContext || window.webkitAudioContext)) return;
  const context = new (window.AudioContext || window.webkitAudioContext)();
  const tone = context.createOscillator();
  const filter = context.createBiquadFilter();
  const pan = context.createStereoPanner();
  const volume = context.createGain();
  const pulse = context.createGain();
  const lfo = context.createOscillator();
  tone.frequency.value = 660;
  filter.type = 'lowpass';
  volume.gain.value = 0;
  lfo.frequency.value = 2;
  pulse.gain.value = 0.5;
  lfo.connect(pulse.gain);
  tone.connect(filter).connect(pan).connect(volume).connect(pulse).connect(context.destination);
  tone.start();
  lfo.start();
  guide.audio = { context, filter, pan, volume };
}

function updateBeacon(target) {
  if (!guide.audio) return;
  const band = BANDS[target.band] ?? BANDS.dimmed;
  const angle = target.relativeAngle ?? 180;
  const { context, filter, pan, volume } = guide.audio;
  const at = context.currentTime + 0.1;
  pan.pan.linearRampToValueAtTime(Math.max(-1, Math.min(1, Math.sin((angle * Math.PI) / 180))), at);
  filter.frequency.linearRampToValueAtTime(band.cutoff, at);
  volume.gain.linearRampToValueAtTime(band.gain, at);
}

function stopBeacon() {
  if (!guide.audio) return;
  guide.audio.context.close();
  guide.audio = null;
}
