// The public board of a competition (/board/SPACE/COMPETITION): what the clubhouse TV and a spectator's phone show.
// It asks for the board once, then keeps it from the node's live stream, which sends only what changed: the
// head (name, divisions, twos, the time of the last entry shown) when it changed, and the lines that changed.
// The functions before `start` are pure (Tests/Web/board.test.mjs); `start` draws the page.

/** The board after an event: `whole` replaces it, otherwise the head (if sent) and the lines sent replace theirs. */
export function apply(state, event) {
  const lines = event.whole ? {} : { ...(state?.lines ?? {}) };
  for (const player of event.removed ?? []) delete lines[player];
  for (const line of event.lines ?? []) lines[line.player] = line;
  return { head: event.head ?? state?.head ?? null, lines };
}

/** Each division with its lines in board order. */
export function divisions(state) {
  const head = state?.head;
  if (!head) return [];
  const all = Object.values(state.lines);
  return head.divisions.map((division) => ({
    number: division.number,
    title: divisionTitle(division, head.divisions.length),
    rows: all.filter((line) => line.division === division.number).sort((a, b) => a.order - b.order),
  }));
}

/** "Division 2 (13-20)", "Ladies", or "" for a field of one division. */
export function divisionTitle(division, count) {
  if (division.name) return division.name;
  if (count <= 1) return '';
  return `Division ${division.number}${division.range ? ` (${division.range})` : ''}`;
}

/** A figure against par: "E", "+2", "-3". */
export function toPar(value) {
  if (value === 0) return 'E';
  return value > 0 ? `+${value}` : `${value}`;
}

/** Whether a line is out of the running order (not started, no return, disqualified). */
export function out(line) {
  return line.status != null || line.thru === 0;
}

/** The position as a board prints it: "1", "T3", "NR", "DQ", or "" before the first hole. */
export function position(line) {
  if (line.status) return line.status;
  if (line.position == null) return '';
  return `${line.tied ? 'T' : ''}${line.position}`;
}

/** Holes played: "F" for a finished card, "-" before the first. */
export function thru(line) {
  if (line.complete) return 'F';
  return line.thru === 0 ? '-' : String(line.thru);
}

/** The figure the board ranks by, as the scoring reads it: points, or net or gross against par. */
export function score(head, line) {
  if (out(line)) return '';
  switch (head.scoring) {
    case 'net': return toPar(line.netToPar);
    case 'gross': return toPar(line.grossToPar);
    default: return `${line.points}`;
  }
}

/** The ranking column's heading. */
export function scoreTitle(head) {
  switch (head.scoring) {
    case 'net': return 'Net';
    case 'gross': return 'Gross';
    default: return 'Points';
  }
}

/** The pages a TV turns through: each division cut into pages of `perPage` lines (a division with none: one page). */
export function pages(groups, perPage) {
  const result = [];
  for (const group of groups) {
    const count = Math.max(1, Math.ceil(group.rows.length / perPage));
    for (let page = 0; page < count; page += 1) {
      result.push({ ...group, rows: group.rows.slice(page * perPage, (page + 1) * perPage), page: page + 1, of: count });
    }
  }
  return result;
}

/** The head's facts line: the scoring, holes hidden, the time of the last entry shown ("10:42"). */
export function facts(head, timeOf = (iso) => iso.slice(11, 16)) {
  const parts = [{ net: 'Medal (net)', gross: 'Medal (gross)' }[head.scoring] ?? 'Stableford'];
  if (head.hiddenHoles > 0) {
    parts.push(head.hiddenHoles === 1 ? "each card's last hole hidden" : `each card's last ${head.hiddenHoles} holes hidden`);
  }
  if (head.closed) parts.push('closed: final');
  parts.push(head.lastEntry ? `last entry ${timeOf(head.lastEntry)}` : 'no scores yet');
  return parts.join(' · ');
}

// ----- The page -----

const TURN_SECONDS = 10;

function element(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value != null) node.setAttribute(name, value);
  }
  for (const child of [].concat(children)) {
    if (child != null) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function table(head, rows, fresh) {
  const header = element('tr', {}, [
    element('th', { scope: 'col' }, 'Pos'), element('th', { scope: 'col' }, 'Player'),
    element('th', { scope: 'col', class: 'num' }, 'Thru'), element('th', { scope: 'col', class: 'num' }, scoreTitle(head)),
  ]);
  const body = rows.map((line) => element('tr', {
    class: [out(line) ? 'out' : '', fresh.has(line.player) ? 'fresh' : ''].join(' ').trim() || null,
    'data-player': line.player,
  }, [
    element('td', { class: 'pos' }, position(line)),
    element('td', { class: 'name' }, [line.name, line.decidedBy ? element('span', { class: 'why' }, line.decidedBy) : null]),
    element('td', { class: 'num thru' }, thru(line)),
    element('td', { class: 'num score' }, score(head, line)),
  ]));
  return element('table', {}, [element('thead', {}, header), element('tbody', {}, body)]);
}

function localTime(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso.slice(11, 16)
    : date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
}

export function start() {
  const [, , space, competition] = location.pathname.split('/');
  const base = `/board/${space}/${competition}`;
  const tv = window.matchMedia('(min-width: 1200px)');
  const main = document.getElementById('board');
  const live = document.getElementById('live');
  let state = null;
  let fresh = new Set();
  let turn = 0;

  function message(text) {
    main.replaceChildren(element('p', { class: 'message' }, text));
    document.getElementById('twos').replaceChildren();
  }

  function draw() {
    if (!state?.head) return;
    const { head } = state;
    document.title = `${head.name} · Caddie`;
    document.getElementById('title').textContent = head.name;
    document.getElementById('facts').textContent = facts(head, localTime);
    const groups = divisions(state);
    if (tv.matches) {
      // One page at a time, as many lines as the screen holds.
      const perPage = Math.max(5, Math.floor((window.innerHeight - 300) / 58));
      const all = pages(groups, perPage);
      const page = all[turn % all.length];
      const heading = [page.title, page.of > 1 ? `page ${page.page} of ${page.of}` : ''].filter(Boolean).join(' · ');
      main.replaceChildren(...[heading ? element('h2', {}, heading) : null, table(head, page.rows, fresh)].filter(Boolean));
      main.dataset.page = `${(turn % all.length) + 1}/${all.length}`;
    } else {
      main.replaceChildren(...groups.flatMap((group) => [
        group.title ? element('h2', {}, group.title) : null, table(head, group.rows, fresh),
      ].filter(Boolean)));
    }
    const twos = head.twos.map((two) => `${two.name} (${two.hole})`);
    document.getElementById('twos').textContent = twos.length ? `Twos: ${twos.join(', ')}` : '';
  }

  function take(event) {
    fresh = new Set(event.whole ? [] : (event.lines ?? []).map((line) => line.player));
    state = apply(state, event);
    draw();
  }

  fetch(`${base}/board.json`, { headers: { Accept: 'application/json' } }).then(async (response) => {
    const body = await response.json().catch(() => ({}));
    if (!response.ok) {
      live.textContent = '';
      message(body.message ?? `The board cannot be read (${response.status}).`);
      return;
    }
    take(body);
    const stream = new EventSource(`${base}/events`);
    stream.addEventListener('open', () => { live.textContent = 'Live'; delete live.dataset.link; });
    stream.addEventListener('error', () => { live.textContent = 'Reconnecting…'; live.dataset.link = 'lost'; });
    stream.addEventListener('board', (event) => take(JSON.parse(event.data)));
    stream.addEventListener('board-closed', () => {
      stream.close();
      live.textContent = '';
      message('The committee has closed this board.');
    });
  }).catch(() => {
    live.textContent = 'Not reachable';
    live.dataset.link = 'lost';
  });
  // The TV turns its pages; a phone scrolls.
  setInterval(() => {
    if (!tv.matches || !state) return;
    turn += 1;
    fresh = new Set();
    draw();
  }, TURN_SECONDS * 1000);
  tv.addEventListener('change', draw);
}

if (globalThis.document) start();
