// The phone's own guidance for a dead zone (Sources/CaddieAPI/Web/guide.js): the geodesic against Vincenty's own
// worked example, the sectors, bands and callout words the node uses, the green's outline, and the current hole.
// The browser test compares it with the node's answer at one position. Run with `node --test`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as guide from '../../Sources/CaddieAPI/Web/guide.js';

const dms = (d, m, s) => Math.sign(d) * (Math.abs(d) + m / 60 + s / 3600);

test('the geodesic from Flinders Peak to Buninyong is Vincenty\'s worked example: 54,972.271 m at 306°52\'05.37"', () => {
  const flinders = { latitude: dms(-37, 57, 3.7203), longitude: dms(144, 25, 29.5244) };
  const buninyong = { latitude: dms(-37, 39, 10.1561), longitude: dms(143, 55, 35.3839) };
  const { distance, bearing } = guide.inverse(flinders, buninyong);
  assert.ok(Math.abs(distance - 54972.271) < 0.001, `distance ${distance}`);
  assert.ok(Math.abs(bearing - dms(306, 52, 5.37)) < 1 / 3600, `bearing ${bearing}`);
});

test('on a golf course\'s scale: a thousandth of a degree north at the equator is 110.574 m, bearing 0; the same point is 0', () => {
  const { distance, bearing } = guide.inverse({ latitude: 0, longitude: 0 }, { latitude: 0.001, longitude: 0 });
  assert.ok(Math.abs(distance - 110.574) < 0.001, `distance ${distance}`);
  assert.equal(bearing, 0);
  assert.deepEqual(guide.inverse({ latitude: 52, longitude: 4 }, { latitude: 52, longitude: 4 }), { distance: 0, bearing: 0 });
  // Due east, then due west: 90 and 270.
  assert.ok(Math.abs(guide.inverse({ latitude: 0, longitude: 0 }, { latitude: 0, longitude: 0.001 }).bearing - 90) < 1e-9);
  assert.ok(Math.abs(guide.inverse({ latitude: 0, longitude: 0.001 }, { latitude: 0, longitude: 0 }).bearing - 270) < 1e-9);
});

test('relative angles, sectors and bands as the node draws them (behind is +180; each sector holds its upper edge)', () => {
  assert.equal(guide.signed(180), 180);
  assert.equal(guide.signed(190), -170);
  assert.equal(guide.signed(-360), 0);
  assert.deepEqual([15, 16, 75, 76, 105, 165, 195, 255, 285, 345, 346, -10].map(guide.direction), [
    'ahead', 'ahead to the right', 'ahead to the right', 'to the right', 'to the right', 'behind to the right', 'behind',
    'behind to the left', 'to the left', 'ahead to the left', 'ahead', 'ahead']);
  assert.deepEqual([0, 15, 15.1, 55, 56, -125, 126, null].map(guide.band),
    ['onAxis', 'onAxis', 'nearAxis', 'nearAxis', 'offAxis', 'offAxis', 'behind', 'dimmed']);
});

test('the callout: distance, direction, front and back, in whole yards or metres; "No heading" without one', () => {
  const at = { latitude: 0, longitude: 0 };
  const green = { name: 'Green', kind: 'greenCentre', latitude: 0.001, longitude: 0,
    front: { latitude: 0.0009, longitude: 0 }, back: { latitude: 0.0011, longitude: 0 } };
  const plain = guide.toTarget(at, green);
  assert.equal(plain.callout, 'Green, 121 yards. Front 109, back 133. No heading: direction unknown.');
  assert.equal(plain.relativeAngle, null);
  assert.equal(plain.band, 'dimmed');
  assert.equal(plain.distanceMeters, 110.6);
  const heading = guide.toTarget(at, green, { heading: 330, metres: true });
  assert.equal(heading.callout, 'Green, 111 metres, ahead to the right. Front 100, back 122.');
  assert.equal(heading.relativeAngle, 30);
  assert.equal(heading.band, 'nearAxis');
  // A hazard has no front or back read out; one metre is "1 metre".
  const pond = guide.toTarget(at, { name: 'Pond', kind: 'hazard', latitude: 0.000009, longitude: 0 }, { metres: true });
  assert.equal(pond.callout, 'Pond, 1 metre. No heading: direction unknown.');
});

test('on the green: inside its outline, else within 15 m of its centre', () => {
  const square = [[-0.0001, -0.0001], [-0.0001, 0.0001], [0.0001, 0.0001], [0.0001, -0.0001]];
  assert.equal(guide.inside({ latitude: 0, longitude: 0 }, square), true);
  assert.equal(guide.inside({ latitude: 0.0002, longitude: 0 }, square), false);
  const pack = { course: 'Nine', holes: [
    { hole: 1, par: 4, green: square, targets: [{ name: 'Green', kind: 'greenCentre', latitude: 0, longitude: 0 }] },
    { hole: 2, par: 3, green: null, targets: [{ name: 'Green', kind: 'greenCentre', latitude: 1, longitude: 1 }] },
    { hole: 3, par: 5, green: null, targets: [{ name: 'Pond', kind: 'hazard', latitude: 2, longitude: 2 }] },
  ] };
  assert.equal(guide.holeGuidance(pack, 1, { latitude: 0.00005, longitude: 0 }).onGreen, true);
  assert.equal(guide.holeGuidance(pack, 1, { latitude: 0.00015, longitude: 0 }).onGreen, false);
  assert.equal(guide.holeGuidance(pack, 2, { latitude: 1.0001, longitude: 1 }).onGreen, true);
  assert.equal(guide.holeGuidance(pack, 2, { latitude: 1.0002, longitude: 1 }).onGreen, false);
  const answer = guide.holeGuidance(pack, 2, { latitude: 1.001, longitude: 1 });
  assert.equal(answer.hole, 2);
  assert.equal(answer.par, 3);
  assert.equal(answer.onPhone, true);
  assert.equal(answer.targets[0].hole, 2);
  // No green for the hole, or no such hole: nothing to guide to, as the node says.
  assert.equal(guide.holeGuidance(pack, 3, { latitude: 2, longitude: 2 }), null);
  assert.equal(guide.holeGuidance(pack, 9, { latitude: 2, longitude: 2 }), null);
});

test('the hole a player is on: the first with no value, entries waiting on the phone counting; the last when all have one', () => {
  const cells = [{ hole: 1, winner: { strokes: 4 } }, { hole: 2, winner: null }, { hole: 3, winner: { strokes: 5 } }];
  assert.equal(guide.currentHole(9, cells), 2);
  assert.equal(guide.currentHole(9, cells, new Set([2])), 4);
  assert.equal(guide.currentHole(3, cells, new Set([2])), 3);
  assert.equal(guide.currentHole(9, []), 1);
});
