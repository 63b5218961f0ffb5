// What the phone keeps while no node answers: entries made at the tap and not yet taken by a node (the outbox),
// as pure functions over plain lists, so they are unit-tested with node's test runner (Tests/Web/outbox.test.mjs).
// local.js stores them in IndexedDB; app.js sends them.

/** The key of a score cell across spaces and games: one unsent entry per cell. */
export function cellKey(entry) {
  return `${entry.space}/${entry.game}/${entry.player}/${entry.hole}`;
}

/** The outbox after `entry` is made at `now`. A later entry for a cell that still waits replaces its value but keeps
 * what the first one saw of the cell, since the node never took the first: both replace the same values. A refused
 * entry that is entered again is tried again. */
export function queue(entries, entry, now) {
  const key = cellKey(entry);
  const waiting = entries.find((e) => e.key === key);
  const made = {
    key, space: entry.space, game: entry.game, player: entry.player, hole: entry.hole,
    strokes: entry.pickUp ? null : entry.strokes, pickUp: entry.pickUp === true,
    putts: entry.putts ?? null, fairway: entry.fairway ?? null, gir: entry.gir ?? null,
    seen: waiting ? waiting.seen : [...(entry.seen ?? [])],
    made: waiting ? waiting.made : now,
    changed: now,
    refused: null,
  };
  return ordered([...entries.filter((e) => e.key !== key), made]);
}

/** An op signed on the phone, kept until a node takes it. Signed ops are never merged or replaced (each has its
 * place in the device's log); a correction is a new op that names the one it replaces. `cell` is what it carries:
 * a score (space, game, player, hole and the values), a hole choice (`kind` 'choice': space, game, hole, `key` and
 * `choice`, a player id, 'lone' or null), an attestation (`kind` 'attest': space, game, player), a finish or
 * reopening (`kind` 'finish': space, game, `choice` true to finish), a new game (`kind` 'game': space, game), a new
 * player (`kind` 'player': space, player), or for a join only the space. */
export function signed(cell, op, now) {
  const kind = cell.kind ?? (cell.game ? 'score' : 'join');
  return {
    key: `op/${cell.space}/${op.name.replace(/:(\d+)$/, (_, seq) => `/${seq.padStart(20, '0')}`)}`,
    space: cell.space, game: cell.game ?? null, player: cell.player ?? null, hole: cell.hole ?? null,
    strokes: cell.strokes ?? null, pickUp: cell.pickUp === true, putts: cell.putts ?? null, fairway: cell.fairway ?? null,
    gir: cell.gir ?? null, choiceKey: cell.key ?? null, choice: cell.choice ?? null,
    kind, op: op.op, name: op.name, made: now, changed: now, refused: null,
  };
}

/** Whether an entry is a score (typed on the card), not a join, a hole choice or an attestation. */
export function isScore(entry) {
  return !entry.kind || entry.kind === 'score';
}

/** The hole choices a game's entries hold that no node has taken yet, keyed "hole.KEY": the newest of each. */
export function choicesOf(entries, space, game) {
  return new Map(ordered(entries).filter((e) => e.kind === 'choice' && e.space === space && e.game === game && !e.refused)
    .map((e) => [`${e.hole}.${e.choiceKey}`, e.choice]));
}

/** The players whose cards this phone attested and no node has taken yet, in a game. */
export function attestedOf(entries, space, game) {
  return new Set(entries.filter((e) => e.kind === 'attest' && e.space === space && e.game === game && !e.refused)
    .map((e) => e.player));
}

/** Orders the outbox as it is sent: by when each entry was made, then by key (a device's ops by seq). */
export function ordered(entries) {
  return [...entries].sort((a, b) => a.made - b.made || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** The body of the API call that sends an entry (POST .../games/GAME/scores). */
export function body(entry) {
  if (entry.pickUp) return { player: entry.player, hole: entry.hole, pickUp: true, seen: entry.seen };
  const sent = { player: entry.player, hole: entry.hole, strokes: entry.strokes, seen: entry.seen };
  if (entry.putts !== null && entry.putts !== undefined) sent.putts = entry.putts;
  if (entry.fairway) sent.fairway = entry.fairway;
  if (typeof entry.gir === 'boolean') sent.gir = entry.gir;
  return sent;
}

/** What a failed send means: 'retry' (no node answered, or it could not take it now: try again later),
 * 'signed-out' (keep it and ask to sign in) or 'refused' (the node said no: keep it, listed with the reason). */
export function failure(error) {
  const status = error?.status ?? 0;
  if (status === 0 || status === 408 || status === 429 || status >= 500) return 'retry';
  if (status === 401) return 'signed-out';
  // A partner's session this phone has not claimed yet (it signs its session right after sign-in): not the entry's
  // fault, so it waits, as when signed out.
  if (status === 403 && error?.code === 'partner_phone') return 'signed-out';
  return 'refused';
}

/** The most signed ops one request carries (the node takes at most 256 at a time). */
export const MAX_OPS = 256;

/** The run of entries from `start` that go in one request: consecutive entries signed on this phone (`op`) of the
 * same space, oldest first, at most `max`; a lone entry, or one the node signs, goes alone. A hole for four is then
 * one request, not four. */
export function run(entries, start, max = MAX_OPS) {
  const first = entries[start];
  if (!first?.op) return first ? [first] : [];
  const out = [];
  for (let i = start; i < entries.length && out.length < max; i += 1) {
    const entry = entries[i];
    if (!entry.op || entry.space !== first.space) break;
    out.push(entry);
  }
  return out;
}

/** Milliseconds to wait before the next try after `attempt` failed tries in a row: 2 s, doubling, at most a minute. */
export function backoff(attempt) {
  return Math.min(60000, 2000 * 2 ** Math.max(0, Math.min(attempt, 10)));
}

/** The entries of one game keyed "player:hole", for drawing them on its card. */
export function ofGame(entries, space, game) {
  return new Map(ordered(entries).filter((e) => isScore(e) && e.space === space && e.game === game)
    .map((e) => [`${e.player}:${e.hole}`, e]));
}

/** The op names of a cell's signed entries still on the phone: a new entry for the cell replaces them too. */
export function signedOf(entries, space, game, player, hole) {
  return entries.filter((e) => e.op && isScore(e) && e.space === space && e.game === game && e.player === player
    && e.hole === hole).map((e) => e.name);
}

/** The status line's words for what the phone holds: "3 entries on this phone, not yet sent", and refusals. */
export function pendingText(entries) {
  const waiting = entries.filter((e) => !e.refused).length;
  const refused = entries.length - waiting;
  const parts = [];
  if (waiting) parts.push(`${waiting} ${waiting === 1 ? 'entry' : 'entries'} on this phone, not yet sent`);
  if (refused) parts.push(`${refused} refused by the node, kept on this phone`);
  return parts.join(' · ');
}
