// The phone's own storage (IndexedDB, database "caddie"): the outbox of entries not yet taken by a node, the drafts
// typed on each hole, and the last answer of every read, so that the app opens and shows the card with no node in
// reach. Each write is one transaction that is complete when the promise resolves: an entry is on the phone then.

const NAME = 'caddie';
const VERSION = 2;
let opened = null;

function open() {
  if (!opened) {
    opened = new Promise((resolve, reject) => {
      const request = indexedDB.open(NAME, VERSION);
      request.onupgradeneeded = () => {
        const db = request.result;
        if (!db.objectStoreNames.contains('outbox')) db.createObjectStore('outbox', { keyPath: 'key' });
        if (!db.objectStoreNames.contains('drafts')) db.createObjectStore('drafts', { keyPath: 'game' });
        if (!db.objectStoreNames.contains('reads')) db.createObjectStore('reads', { keyPath: 'path' });
        if (!db.objectStoreNames.contains('device')) db.createObjectStore('device', { keyPath: 'id' });
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    opened.catch(() => { opened = null; });
  }
  return opened;
}

/** Runs `work(stores)` in one transaction over `names` and resolves with its result once the transaction is done
 * (committed, and with 'strict' durability on disk), not merely when the requests were made. */
async function transaction(names, mode, work, durability = 'strict') {
  const db = await open();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(names, mode, { durability });
    const stores = Object.fromEntries(names.map((name) => [name, tx.objectStore(name)]));
    let result;
    Promise.resolve(work(stores)).then((value) => { result = value; }, (error) => { tx.abort(); reject(error); });
    tx.oncomplete = () => resolve(result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error('the phone\'s storage refused the write'));
  });
}

const request = (r) => new Promise((resolve, reject) => { r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error); });

/** Every entry of the outbox. */
export function outbox() {
  return transaction(['outbox'], 'readonly', (s) => request(s.outbox.getAll()));
}

/** Takes an entry off the outbox once a node took it, unless it was changed on the phone since it was sent. */
export function sent(entry) {
  return transaction(['outbox'], 'readwrite', async (s) => {
    const now = await request(s.outbox.get(entry.key));
    if (now && now.changed === entry.changed) s.outbox.delete(entry.key);
  });
}

/** Marks an entry refused with the node's words; it stays on the phone until entered again or discarded. */
export function refuse(entry, reason) {
  return transaction(['outbox'], 'readwrite', async (s) => {
    const now = await request(s.outbox.get(entry.key));
    if (now && now.changed === entry.changed) s.outbox.put({ ...now, refused: reason });
  });
}

/** Drops an entry from the outbox (a person chose to discard a refused entry). */
export function discard(key) {
  return transaction(['outbox'], 'readwrite', (s) => { s.outbox.delete(key); });
}

/** The drafts of a game: [["hole:player", entry], ...]. */
export async function drafts(game) {
  const found = await transaction(['drafts'], 'readonly', (s) => request(s.drafts.get(game)));
  return found ? found.cells : [];
}

export function writeDrafts(game, cells) {
  return transaction(['drafts'], 'readwrite', (s) => {
    if (cells.length) s.drafts.put({ game, cells });
    else s.drafts.delete(game);
  });
}

/** Moves a hole's drafts into the outbox in one transaction: the outbox and the drafts never both hold an entry, and
 * neither loses it. `entries` is the whole new outbox, `keys` the cells it changed. */
export function commit(game, cells, entries, keys) {
  return transaction(['outbox', 'drafts'], 'readwrite', (s) => {
    const byKey = new Map(entries.map((e) => [e.key, e]));
    for (const key of keys) s.outbox.put(byKey.get(key));
    if (cells.length) s.drafts.put({ game, cells });
    else s.drafts.delete(game);
  });
}

/** The phone's device record (device.js), or null. */
export function device() {
  return transaction(['device'], 'readonly', (s) => request(s.device.get('me'))).then((found) => found ?? null);
}

/** Keeps a new device record (its keys stay non-extractable CryptoKeys). */
export function writeDevice(record) {
  return transaction(['device'], 'readwrite', (s) => { s.device.put(record); });
}

/** Keeps ops signed on the phone: the device's new log head, the ops in the outbox and, for scores, the game's
 * drafts without the ones they came from, in one transaction. Until it completes the ops do not exist. */
export function keepSigned(record, entries, game = null, cells = null) {
  return transaction(['device', 'outbox', 'drafts'], 'readwrite', (s) => {
    s.device.put(record);
    for (const entry of entries) s.outbox.put(entry);
    if (game !== null) {
      if (cells.length) s.drafts.put({ game, cells });
      else s.drafts.delete(game);
    }
  });
}

/** The last answer kept for a read, or null. */
export function read(path) {
  return transaction(['reads'], 'readonly', (s) => request(s.reads.get(path))).catch(() => null);
}

/** Keeps a read's answer with the time it was read. Every read does this, so it does not wait for the disk: a
 * copy lost to a crash is only an older screen, unlike an entry, which is written 'strict'. */
export function keep(path, data) {
  return transaction(['reads'], 'readwrite', (s) => { s.reads.put({ path, data, at: Date.now() }); }, 'relaxed')
    .catch(() => {});
}
