"""The foursome round with pycrdt (Yrs), for caddie-bench's convergeRatioToPycrdt.

Four replicas each make N edits to one map offline: edit i writes a fresh cell, except when i % 10 == 9, when it
corrects the cell of edit i - 9 (as a golfer fixes an earlier hole). Then the clock starts, as Caddie's does with
its ops already made: every replica sends every other the delta after that one's state vector (12 deltas, a full
mesh), each delta is applied and stored in the receiving replica's own SQLite file (WAL, synchronous=FULL, one
transaction a delta, as Caddie commits a batch); the clock stops when the last is stored, and the four must
then hold identical content.
Prints one JSON object. Signing and encryption, which Caddie does on every op, have no counterpart here.

    python3 bench-peer.py [--edits N] [--dir DIR]
"""

import argparse
import json
import os
import sqlite3
import tempfile
import time

import pycrdt


def replica_store(path):
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE IF NOT EXISTS update_log (id INTEGER PRIMARY KEY, bytes BLOB NOT NULL)")
    return db


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=10_000, help="edits per replica (default 10000)")
    parser.add_argument("--dir", default=None, help="where the SQLite files go (default: a new temporary folder)")
    args = parser.parse_args()
    folder = args.dir or tempfile.mkdtemp(prefix="caddie-pycrdt-")

    docs, cells, stores = [], [], []
    for index in range(4):
        doc = pycrdt.Doc(client_id=index + 1)
        docs.append(doc)
        cells.append(doc.get("cells", type=pycrdt.Map))
        db = replica_store(os.path.join(folder, "replica-%d.sqlite" % index))
        stores.append(db)

    # Offline: each replica's own edits, stored as they are made (not timed, as Caddie's offline ops are not).
    for index, (doc, card, db) in enumerate(zip(docs, cells, stores)):
        for i in range(args.edits):
            target = i - 9 if i % 10 == 9 else i
            with doc.transaction():
                card["%d:%d" % (index, target)] = {"strokes": 3 + i % 5, "putts": 2}
        db.execute("BEGIN")
        db.execute("INSERT INTO update_log (bytes) VALUES (?)", (doc.get_update(),))
        db.execute("COMMIT")

    started = time.perf_counter()
    deltas = 0
    delta_bytes = 0
    states = [doc.get_state() for doc in docs]
    outgoing = {}
    for sender in range(4):
        for receiver in range(4):
            if sender != receiver:
                outgoing[(sender, receiver)] = docs[sender].get_update(states[receiver])
    for (sender, receiver), delta in outgoing.items():
        docs[receiver].apply_update(delta)
        db = stores[receiver]
        db.execute("BEGIN")
        db.execute("INSERT INTO update_log (bytes) VALUES (?)", (delta,))
        db.execute("COMMIT")
        deltas += 1
        delta_bytes += len(delta)
    elapsed = time.perf_counter() - started
    # Checked after the clock, as Caddie's state hashes are compared after its clock stops.
    contents = [card.to_py() for card in cells]

    expected = 4 * (args.edits - args.edits // 10)
    if any(content != contents[0] for content in contents) or len(contents[0]) != expected:
        raise SystemExit("bench-peer: the four replicas did not converge (%s cells)" % [len(c) for c in contents])
    for db in stores:
        db.close()
    print(json.dumps({"pycrdtVersion": pycrdt.__version__,
                      "editsPerReplica": args.edits, "deltas": deltas, "deltaBytes": delta_bytes,
                      "cells": len(contents[0]), "pycrdtConvergeSeconds": round(elapsed, 4)}))


if __name__ == "__main__":
    main()
