"""The foursome round with pycrdt (Yrs) and with Loro, for caddie-bench's convergeRatioToFaster.

Four replicas each make N edits to one map offline: edit i writes a fresh cell, except when i % 10 == 9, when it
corrects the cell of edit i - 9 (as a golfer fixes an earlier hole). Then the clock starts, as Caddie's does with
its ops already made: every replica sends every other the delta after that one's version (12 deltas, a full
mesh), each delta is applied and stored in the receiving replica's own SQLite file (WAL, synchronous=FULL, one
transaction a delta, as Caddie commits a batch); the clock stops when the last is stored, and the four must
then hold identical content. The two libraries run the same round, one after the other.
Prints one JSON object. Signing and encryption, which Caddie does on every op, have no counterpart here.

    python3 bench-peer.py [--edits N] [--dir DIR]
"""

import argparse
import importlib.metadata
import json
import os
import sqlite3
import tempfile
import time

import loro
import pycrdt


def replica_store(path):
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE IF NOT EXISTS update_log (id INTEGER PRIMARY KEY, bytes BLOB NOT NULL)")
    return db


def store(db, update):
    db.execute("BEGIN")
    db.execute("INSERT INTO update_log (bytes) VALUES (?)", (update,))
    db.execute("COMMIT")


class Pycrdt:
    """One replica over pycrdt: a Doc with one Map."""
    name = "pycrdt"

    def __init__(self, index):
        self.doc = pycrdt.Doc(client_id=index + 1)
        self.cells = self.doc.get("cells", type=pycrdt.Map)

    def edit(self, key, value):
        with self.doc.transaction():
            self.cells[key] = value

    def everything(self):
        return self.doc.get_update()

    def version(self):
        return self.doc.get_state()

    def delta_after(self, version):
        return self.doc.get_update(version)

    def apply(self, delta):
        self.doc.apply_update(delta)

    def content(self):
        return self.cells.to_py()


class Loro:
    """One replica over Loro: a LoroDoc with one map, a commit an edit."""
    name = "loro"

    def __init__(self, index):
        self.doc = loro.LoroDoc()
        self.doc.peer_id = index + 1
        self.cells = self.doc.get_map("cells")

    def edit(self, key, value):
        self.cells.insert(key, value)
        self.doc.commit()

    def everything(self):
        return self.doc.export(loro.ExportMode.Snapshot())

    def version(self):
        return self.doc.oplog_vv

    def delta_after(self, version):
        return self.doc.export(loro.ExportMode.Updates(from_=version))

    def apply(self, delta):
        self.doc.import_(delta)

    def content(self):
        return self.doc.get_deep_value()["cells"]


def round_with(kind, edits, folder):
    replicas = [kind(index) for index in range(4)]
    stores = [replica_store(os.path.join(folder, "%s-replica-%d.sqlite" % (kind.name, index))) for index in range(4)]
    # Offline: each replica's own edits, stored as they are made (not timed, as Caddie's offline ops are not).
    for index, (replica, db) in enumerate(zip(replicas, stores)):
        for i in range(edits):
            target = i - 9 if i % 10 == 9 else i
            replica.edit("%d:%d" % (index, target), {"strokes": 3 + i % 5, "putts": 2})
        store(db, replica.everything())

    started = time.perf_counter()
    deltas = 0
    delta_bytes = 0
    versions = [replica.version() for replica in replicas]
    outgoing = {}
    for sender in range(4):
        for receiver in range(4):
            if sender != receiver:
                outgoing[(sender, receiver)] = replicas[sender].delta_after(versions[receiver])
    for (sender, receiver), delta in outgoing.items():
        replicas[receiver].apply(delta)
        store(stores[receiver], delta)
        deltas += 1
        delta_bytes += len(delta)
    elapsed = time.perf_counter() - started
    # Checked after the clock, as Caddie's state hashes are compared after its clock stops.
    contents = [replica.content() for replica in replicas]
    expected = 4 * (edits - edits // 10)
    if any(content != contents[0] for content in contents) or len(contents[0]) != expected:
        raise SystemExit("bench-peer: the four %s replicas did not converge (%s cells)"
                         % (kind.name, [len(c) for c in contents]))
    for db in stores:
        db.close()
    return {"seconds": round(elapsed, 4), "deltas": deltas, "deltaBytes": delta_bytes, "cells": len(contents[0])}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=10_000, help="edits per replica (default 10000)")
    parser.add_argument("--dir", default=None, help="where the SQLite files go (default: a new temporary folder)")
    args = parser.parse_args()
    folder = args.dir or tempfile.mkdtemp(prefix="caddie-peers-")
    y = round_with(Pycrdt, args.edits, folder)
    l = round_with(Loro, args.edits, folder)
    print(json.dumps({
        "editsPerReplica": args.edits,
        "pycrdtVersion": pycrdt.__version__, "pycrdtConvergeSeconds": y["seconds"], "pycrdtDeltaBytes": y["deltaBytes"],
        "loroVersion": importlib.metadata.version("loro"), "loroConvergeSeconds": l["seconds"],
        "loroDeltaBytes": l["deltaBytes"], "cells": y["cells"],
    }))


if __name__ == "__main__":
    main()
