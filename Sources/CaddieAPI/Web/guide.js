// Guidance worked out on the phone, for a dead zone: with the node out of reach, the Guide screen goes on from the
// hole geometry it kept (GET .../games/GAME/guidance-pack) and the phone's position, as the node's guidance does it
// (CaddieServices, Guidance and Geodesy): the geodesic on WGS84 by Vincenty's inverse formula, the direction
// relative to the heading in eight sectors, the beacon's bands, the callout's words, and the green's outline for
// arrival. Pure functions, tested by Tests/Web/guide.test.mjs.

const A = 6378137;
const F = 1 / 298.257223563;
const B = A * (1 - F);
const RAD = Math.PI / 180;
const YARD = 0.9144;
/** Within this many metres of the green's centre counts as on the green when the outline is unknown. */
export const ENTER_RADIUS = 15;

/** Degrees in 0..<360. */
export function normalized(degrees) {
  if (!Number.isFinite(degrees)) return 0;
  let result = (degrees % 360) + 0; // + 0 turns -0 into 0
  if (result < 0) result += 360;
  return result >= 360 ? 0 : result;
}

/** Degrees in -180...180, exactly behind as +180. */
export function signed(degrees) {
  const result = normalized(degrees);
  return result > 180 ? result - 360 : result;
}

/** The geodesic from one point to another ({latitude, longitude}, degrees): its length in metres and the initial
 * bearing in degrees clockwise from true north. Vincenty's inverse formula; a pair it does not converge on (nearly
 * antipodal, never on a golf course) falls back to the sphere. */
export function inverse(from, to) {
  const L = signed(to.longitude - from.longitude) * RAD;
  const U1 = Math.atan((1 - F) * Math.tan(from.latitude * RAD));
  const U2 = Math.atan((1 - F) * Math.tan(to.latitude * RAD));
  const [sinU1, cosU1, sinU2, cosU2] = [Math.sin(U1), Math.cos(U1), Math.sin(U2), Math.cos(U2)];
  let lambda = L;
  for (let i = 0; i < 200; i += 1) {
    const sinLambda = Math.sin(lambda);
    const cosLambda = Math.cos(lambda);
    const sinSigma = Math.hypot(cosU2 * sinLambda, cosU1 * sinU2 - sinU1 * cosU2 * cosLambda);
    if (sinSigma === 0) return { distance: 0, bearing: 0 };
    const cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda;
    const sigma = Math.atan2(sinSigma, cosSigma);
    const sinAlpha = (cosU1 * cosU2 * sinLambda) / sinSigma;
    const cos2Alpha = 1 - sinAlpha * sinAlpha;
    const cos2SigmaM = cos2Alpha === 0 ? 0 : cosSigma - (2 * sinU1 * sinU2) / cos2Alpha;
    const C = (F / 16) * cos2Alpha * (4 + F * (4 - 3 * cos2Alpha));
    const previous = lambda;
    lambda = L + (1 - C) * F * sinAlpha
      * (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)));
    if (Math.abs(lambda - previous) < 1e-12) {
      const u2 = (cos2Alpha * (A * A - B * B)) / (B * B);
      const a = 1 + (u2 / 16384) * (4096 + u2 * (-768 + u2 * (320 - 175 * u2)));
      const b = (u2 / 1024) * (256 + u2 * (-128 + u2 * (74 - 47 * u2)));
      const deltaSigma = b * sinSigma * (cos2SigmaM + (b / 4) * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
        - (b / 6) * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)));
      const bearing = Math.atan2(cosU2 * Math.sin(lambda), cosU1 * sinU2 - sinU1 * cosU2 * Math.cos(lambda)) / RAD;
      return { distance: B * a * (sigma - deltaSigma), bearing: normalized(bearing) };
    }
  }
  const [p1, p2] = [from.latitude * RAD, to.latitude * RAD];
  const angle = Math.acos(Math.min(1, Math.sin(p1) * Math.sin(p2) + Math.cos(p1) * Math.cos(p2) * Math.cos(L)));
  const bearing = Math.atan2(Math.sin(L) * Math.cos(p2), Math.cos(p1) * Math.sin(p2) - Math.sin(p1) * Math.cos(p2) * Math.cos(L));
  return { distance: angle * ((2 * A + B) / 3), bearing: normalized(bearing / RAD) };
}

/** The beacon's band for a direction relative to the heading (null: no heading). */
export function band(relativeAngle) {
  if (relativeAngle === null || !Number.isFinite(relativeAngle)) return 'dimmed';
  const offset = Math.abs(signed(relativeAngle));
  return offset <= 15 ? 'onAxis' : offset <= 55 ? 'nearAxis' : offset <= 125 ? 'offAxis' : 'behind';
}

const SECTORS = [[15, 'ahead'], [75, 'ahead to the right'], [105, 'to the right'], [165, 'behind to the right'],
  [195, 'behind'], [255, 'behind to the left'], [285, 'to the left'], [345, 'ahead to the left']];

/** The words for where a target lies relative to the heading: "ahead to the left", "behind", ... */
export function direction(relativeAngle) {
  const clockwise = normalized(relativeAngle);
  if (clockwise > 345) return 'ahead';
  return SECTORS.find(([upper]) => clockwise <= upper)[1];
}

/** A distance in metres as whole yards or metres, rounded half away from zero. */
export function whole(metres, inMetres) {
  const value = Math.round(Math.abs(metres / (inMetres ? 1 : YARD))) * Math.sign(metres);
  return Number.isFinite(value) ? value : 0;
}

function spoken(count, inMetres) {
  return inMetres ? (count === 1 ? '1 metre' : `${count} metres`) : (count === 1 ? '1 yard' : `${count} yards`);
}

/** Guidance from `position` to one target of the pack ({name, kind, latitude, longitude, front, back}), in the shape
 * of the node's answer: distances, bearing, the relative angle and band, and the callout. */
export function toTarget(position, target, { heading = null, metres = false } = {}) {
  const { distance, bearing } = inverse(position, target);
  const relativeAngle = heading === null ? null : signed(bearing - heading);
  const tenth = (x) => Math.round(x * 10) / 10;
  let callout = `${target.name}, ${spoken(whole(distance, metres), metres)}`;
  callout += relativeAngle === null ? '.' : `, ${direction(relativeAngle)}.`;
  const green = target.kind === 'greenCentre';
  const front = green && target.front ? whole(inverse(position, target.front).distance, metres) : null;
  const back = green && target.back ? whole(inverse(position, target.back).distance, metres) : null;
  if (front !== null && back !== null) callout += ` Front ${front}, back ${back}.`;
  else if (front !== null) callout += ` Front ${front}.`;
  else if (back !== null) callout += ` Back ${back}.`;
  if (relativeAngle === null) callout += ' No heading: direction unknown.';
  return {
    target: target.name, distanceMeters: tenth(distance), distanceYards: tenth(distance / YARD), bearing: tenth(bearing),
    relativeAngle: relativeAngle === null ? null : tenth(relativeAngle), band: band(relativeAngle), callout,
  };
}

/** Whether `position` is inside an outline of [latitude, longitude] corners (even-odd rule, in a flat projection
 * centred on the position with WGS84's radii of curvature there, as the node does). */
export function inside(position, corners) {
  const phi = position.latitude * RAD;
  const e2 = F * (2 - F);
  const w = Math.sqrt(1 - e2 * Math.sin(phi) ** 2);
  const east = ((A / w) * Math.cos(phi)) * RAD;
  const north = ((A * (1 - e2)) / (w * w * w)) * RAD;
  const flat = corners.map(([lat, lon]) => ({ x: signed(lon - position.longitude) * east, y: (lat - position.latitude) * north }));
  let result = false;
  let previous = flat[flat.length - 1];
  for (const current of flat) {
    if ((current.y > 0) !== (previous.y > 0)) {
      const crossing = current.x + ((0 - current.y) * (previous.x - current.x)) / (previous.y - current.y);
      if (crossing > 0) result = !result;
    }
    previous = current;
  }
  return result;
}

/** The hole a player is on, as the node works it out: the first hole of the card with no value for them (entries
 * waiting on the phone count), else the last. `cells` are the player's cells ({hole, winner}); `waiting` the holes
 * whose entries the phone keeps. */
export function currentHole(holes, cells, waiting = new Set()) {
  const shown = new Set(cells.filter((c) => c.winner).map((c) => c.hole));
  for (let hole = 1; hole <= holes; hole += 1) if (!shown.has(hole) && !waiting.has(hole)) return hole;
  return holes;
}

/** The node's answer to POST .../guidance/hole, worked out from the pack for `hole`: null when the pack has no
 * green for it (the node would say the same: no green position in the course data). */
export function holeGuidance(pack, hole, position, options = {}) {
  const kept = pack.holes.find((h) => h.hole === hole);
  const centre = kept?.targets.find((t) => t.kind === 'greenCentre');
  if (!centre) return null;
  const onGreen = kept.green ? inside(position, kept.green) : inverse(position, centre).distance <= ENTER_RADIUS;
  return {
    hole, course: pack.course, par: kept.par ?? null, onGreen, onPhone: true,
    targets: kept.targets.map((t) => ({ hole, ...toTarget(position, t, options) })),
  };
}
