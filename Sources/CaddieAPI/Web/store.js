// The card as the app shows it, computed from the node's card document (GET .../card). Pure functions: no DOM,
// no network, so they are unit-tested with node's test runner (Tests/Web/store.test.mjs).

/** The mark a pick-up shows on a card (the player started the hole and did not hole out). */
export const PICK_UP = 'P';

/** What a player has on a hole: the strokes, PICK_UP for a pick-up, or null when nothing is entered. */
export function strokes(player, hole) {
  const cell = player.cells.find((c) => c.hole === hole);
  return cell ? (cell.pickUp ? PICK_UP : cell.strokes) : null;
}

/** The cell of a player on a hole, or null. */
export function cell(player, hole) {
  return player.cells.find((c) => c.hole === hole) ?? null;
}

/** The hole to show first: the first hole that some player has no score on, else the last hole. */
export function currentHole(card) {
  for (let hole = 1; hole <= card.holes; hole += 1) {
    if (card.players.some((p) => strokes(p, hole) === null)) return hole;
  }
  return card.holes;
}

/** Sum of a player's strokes over holes from..to; null when none is scored; 'NR' (no return) when a hole among
 * them was picked up. */
export function total(player, from, to) {
  let sum = 0;
  let any = false;
  for (let hole = from; hole <= to; hole += 1) {
    const value = strokes(player, hole);
    if (value === PICK_UP) return 'NR';
    if (value !== null) { sum += value; any = true; }
  }
  return any ? sum : null;
}

/** Strokes minus par over the holes a player has scored (par known), or null. "E" for even, "+3", "-1"; "NR" when
 * the player picked up a hole. */
export function toPar(card, player) {
  let diff = 0;
  let any = false;
  for (const c of player.cells) {
    if (c.pickUp) return 'NR';
    const par = card.par[c.hole - 1];
    if (par === null || par === undefined) continue;
    diff += c.strokes - par;
    any = true;
  }
  if (!any) return null;
  return diff === 0 ? 'E' : diff > 0 ? `+${diff}` : String(diff);
}

/** The conflicts of a card keyed "player:hole". */
export function conflictKeys(card) {
  return new Set(card.conflicts.map((c) => `${c.player}:${c.hole}`));
}

/** Net points (Stableford) total of a player, when the node computed handicaps. */
export function points(player) {
  return player.handicap ? player.handicap.pointsTotal : null;
}

/** Clamps a stroke count typed with +/- to what a card holds (1...20). */
export function stepStrokes(value, delta, par) {
  const start = value ?? par ?? 4;
  const next = value === null ? start : start + delta;
  return Math.min(20, Math.max(1, next));
}

/** A short, human time (hours:minutes, in the phone's own time zone) from the node's ISO time
 * ("2026-11-24T10:04:05.123Z") or from a hybrid logical clock ("1795485165655.0": milliseconds since 1970, then a
 * counter). */
export function clock(text) {
  const value = String(text ?? '');
  let ms = null;
  if (/^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(value)) ms = Date.parse(value);
  const hlc = /^(\d{10,})\.\d+$/.exec(value);
  if (hlc) ms = Number(hlc[1]);
  if (ms === null || Number.isNaN(ms)) return value;
  const at = new Date(ms);
  return `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
}

/** "device c65d6ccf, entry 12" from an op name "DEVICEHEX:SEQ". */
export function opLabel(op) {
  const [device, seq] = String(op ?? '').split(':');
  return seq ? `device ${device.slice(0, 8)}, entry ${seq}` : String(op ?? '');
}

/** The leaderboard of a card: players by strokes to par over the holes they played (par known), then by name;
 * ties share a position. A player who picked up a hole has no return: listed last, "NR", with no position. Each
 * row: position, name, to par ("E", "+3", "-1", "NR") and holes played ("thru"). */
export function leaderboard(card) {
  const rows = card.players.filter((p) => p.cells.length > 0).map((player) => {
    let diff = 0;
    const noReturn = player.cells.some((c) => c.pickUp);
    for (const c of player.cells) {
      const par = card.par[c.hole - 1];
      if (!c.pickUp && par !== null && par !== undefined) diff += c.strokes - par;
    }
    return { name: player.name, diff, noReturn, toPar: toPar(card, player) ?? '–', thru: player.cells.length };
  });
  rows.sort((a, b) => Number(a.noReturn) - Number(b.noReturn) || a.diff - b.diff || a.name.localeCompare(b.name));
  return rows.map(({ noReturn, ...row }) => ({
    position: noReturn ? null : rows.findIndex((r) => !r.noReturn && r.diff === row.diff) + 1, ...row }));
}

/** The op names of the values a cell shows now ([] for no cell): what a draft begun now has seen. */
export function seenOf(cell) {
  return cell ? cell.values.map((v) => v.op) : [];
}

/** The values a cell took after a draft of it began: each value whose op the draft never saw, leaving out this
 * phone's own (`mine(op)`: an entry it kept and sent after the draft began, which is no news to it). A draft kept
 * from before drafts remembered what they saw (no `seen`) has seen the cell as it is. Saving a draft next to such
 * values makes a dispute, never a silent replacement. */
export function meanwhile(draft, cell, mine = () => false) {
  if (!draft || !Array.isArray(draft.seen) || !cell) return [];
  const seen = new Set(draft.seen);
  return cell.values.filter((v) => !seen.has(v.op) && !mine(v.op));
}

/** What a draft replaces when it is saved: the values it saw when it began and this phone's own values the cell
 * shows now (`mine(op)`), else (an old draft) the cell's values now. */
export function draftPred(draft, cell, mine = () => false) {
  if (!Array.isArray(draft?.seen)) return seenOf(cell);
  const own = (cell?.values ?? []).map((v) => v.op).filter((op) => mine(op) && !draft.seen.includes(op));
  return [...draft.seen, ...own];
}

/** A hole's drafts as entries to save, from `draft` ("hole:player" -> the typed entry): each player's draft of
 * `hole` with what it replaces (`seen`: draftPred), except for a player whose card is locked; how many stand beside a
 * value entered meanwhile (a dispute once saved); and the drafts of the other holes, which stay typed. */
export function holeDrafts(card, draft, hole, mine = () => false) {
  const entries = [];
  const left = [];
  let disputes = 0;
  const prefix = `${hole}:`;
  for (const [key, entry] of draft) {
    if (!key.startsWith(prefix)) {
      left.push([key, entry]);
      continue;
    }
    const player = key.slice(prefix.length);
    const record = card.players.find((p) => p.player === player);
    if (record?.locked) continue;
    const saved = cell(record ?? { cells: [] }, hole);
    if (meanwhile(entry, saved, mine).length) disputes += 1;
    entries.push({ player, hole, entry, seen: draftPred(entry, saved, mine) });
  }
  return { entries, left, disputes };
}

/** An entry or a value in words: its strokes, or "a pick-up". */
export function entryWords(entry) {
  return entry.pickUp ? 'a pick-up' : `${entry.strokes}`;
}

const FAIRWAY_WORDS = { hit: 'fairway hit', left: 'missed left', right: 'missed right' };

/** Each of a dispute's values in words, with every field in which the values differ: "3, 2 putts (Cy)" against
 * "3, 1 putt (Bo)", not "3 (Cy) or 3 (Bo)". Strokes are always named. */
export function valueWords(values) {
  const differs = (field) => new Set(values.map((v) => JSON.stringify(v[field] ?? null))).size > 1;
  const putts = differs('putts');
  const fairway = differs('fairway');
  const gir = differs('gir');
  return values.map((v) => {
    const parts = [v.pickUp ? 'picked up' : `${v.strokes}`];
    if (putts) parts.push(v.putts === null || v.putts === undefined ? 'putts not recorded' : `${v.putts} putt${v.putts === 1 ? '' : 's'}`);
    if (fairway) parts.push(FAIRWAY_WORDS[v.fairway] ?? 'fairway not recorded');
    if (gir) parts.push(v.gir === true ? 'green in regulation' : v.gir === false ? 'green missed' : 'green not recorded');
    return `${parts.join(', ')} (${v.author})`;
  });
}

/** Whether some cell of the card shows the op named `name` ("device:seq") among its values. */
export function showsOp(card, name) {
  return card.players.some((player) => player.cells.some((c) => (c.values ?? []).some((v) => v.op === name)));
}

/** The card as the phone sees it with `waiting` (scores kept on this phone, not yet taken by a node: {player,
 * hole, strokes}) counted in: each replaces its cell's strokes or adds the cell. `provisional` holds the players
 * with such an entry: a leaderboard drawn from it marks their rows. */
export function withWaiting(card, waiting) {
  const provisional = new Set();
  const players = card.players.map((player) => {
    const mine = waiting.filter((e) => e.player === player.player && e.hole >= 1 && e.hole <= card.holes);
    if (!mine.length) return player;
    provisional.add(player.player);
    const cells = new Map(player.cells.map((c) => [c.hole, c]));
    for (const e of mine) {
      cells.set(e.hole, { ...(cells.get(e.hole) ?? {}), hole: e.hole, strokes: e.pickUp ? null : e.strokes, pickUp: e.pickUp === true });
    }
    return { ...player, cells: [...cells.values()].sort((a, b) => a.hole - b.hole) };
  });
  return { card: { ...card, players }, provisional };
}
