import CaddieCore
import Synchronization

/// The newest ops of each device's log, kept in memory from the commits that added them, and each space's fork mark
/// once read: what a session needs to push a new op to its peer, without a trip to SQLite and a thread of its own.
///
/// A clubhouse hub's every new op goes to each of its sessions, and each then asks for the ops its peer lacks and,
/// finding none more, the space's fork mark: two reads of SQLite per op per peer, each on a blocking thread. Kept
/// here, both are answered on the session's own task. What is kept is always a tail of the device's log as committed:
/// each commit's log ops are added when it commits (``ChangeRecorder``), the oldest are dropped past
/// ``perDevice``; a space whose change is whole (a fork split, a revocation's cut, a rebuild: the only ways ops leave
/// the log) is forgotten. It is used only in the process that claimed the file (``OpStore/claimWrites()``), which no
/// other process writes. A question this cannot answer in full gives nil, and the caller reads SQLite as before.
public final class RecentOps: Sendable {
    /// A run of one device's log: seqs `first ..< first + ops.count`, the newest last.
    struct Run {
        var first: UInt64
        var ops: [[UInt8]]
        var last: UInt64 { first + UInt64(ops.count) - 1 }

        /// Adds ops that follow on (`seq` is the next), or starts again at `seq` when they do not.
        mutating func add(_ seq: UInt64, _ bytes: [UInt8]) {
            if ops.isEmpty || seq != last + 1 {
                first = seq
                ops = [bytes]
            } else {
                ops.append(bytes)
            }
            if ops.count > RecentOps.perDevice * 2 {
                let drop = ops.count - RecentOps.perDevice
                ops.removeFirst(drop)
                first += UInt64(drop)
            }
        }
    }

    /// What one transaction added, per space and device, until it commits.
    struct Noted {
        var spaces: [SpaceID: [PublicKey: Run]] = [:]

        /// Adds log ops in the order they joined their logs: one lookup for each stretch of one device's ops.
        mutating func add(_ space: SpaceID, run ops: [SignedOp]) {
            guard !ops.isEmpty else { return }
            var devices = spaces.removeValue(forKey: space) ?? [:]
            var start = 0
            while start < ops.count {
                let device = ops[start].device
                var run = devices.removeValue(forKey: device) ?? Run(first: ops[start].seq, ops: [])
                var end = start
                while end < ops.count, ops[end].device == device {
                    run.add(ops[end].seq, ops[end].bytes)
                    end += 1
                }
                devices[device] = run
                start = end
            }
            spaces[space] = devices
        }
    }

    /// Ops kept per device (up to twice as many between trims).
    static let perDevice = 64
    /// Ops kept in all: past it, everything is forgotten and kept afresh from the next commit.
    static let maxOps = 32_768

    private struct State {
        var spaces: [SpaceID: [PublicKey: Run]] = [:]
        var count = 0
        var forkMarks: [SpaceID: Int] = [:]
        /// Moves at each commit and forgetting: a fork mark read before it moved is not kept.
        var generation = 0
    }

    private let state = Mutex(State())

    init() {}

    /// Takes a commit's log ops; forgets the spaces in `whole` (ops may have left their logs) and every fork mark.
    func commit(_ noted: Noted, whole: Set<SpaceID>) {
        state.withLock { state in
            state.generation += 1
            state.forkMarks = [:]
            for space in whole { state.spaces[space] = nil }
            for (space, devices) in noted.spaces where !whole.contains(space) {
                for (device, run) in devices {
                    var kept = state.spaces[space]?[device] ?? Run(first: run.first, ops: [])
                    state.count -= kept.ops.count
                    for (index, bytes) in run.ops.enumerated() { kept.add(run.first + UInt64(index), bytes) }
                    state.count += kept.ops.count
                    state.spaces[space, default: [:]][device] = kept
                }
            }
            if !whole.isEmpty || state.count > Self.maxOps {
                state.count = state.spaces.values.reduce(0) { $0 + $1.values.reduce(0) { $0 + $1.ops.count } }
                if state.count > Self.maxOps {
                    state.spaces = [:]
                    state.count = 0
                }
            }
        }
    }

    /// A transaction rolled back: a fork mark read inside it is not kept.
    func rolledBack() {
        state.withLock { state in
            state.generation += 1
            state.forkMarks = [:]
        }
    }

    /// The ops a peer that holds `peer` lacks, as ``OpStore/ops(space:after:limit:maxBytes:onlyDevices:heads:)``
    /// gives them (devices in `heads`' order, each oldest first, at most `limit` ops and about `maxBytes` bytes), or
    /// nil when some of them are not kept. `heads` must be in device order, as the node keeps them.
    func ops(
        space: SpaceID, after peer: VersionVector, limit: Int, maxBytes: Int, onlyDevices: Set<PublicKey>?,
        heads: [(device: PublicKey, seq: UInt64)]
    ) -> [(id: OpID, bytes: [UInt8])]? {
        state.withLock { state -> [(id: OpID, bytes: [UInt8])]? in
            let runs = state.spaces[space] ?? [:]
            var out: [(id: OpID, bytes: [UInt8])] = []
            guard limit > 0 else { return out }
            var size = 0
            for head in Self.wanted(heads, onlyDevices) {
                let from = peer[head.device]
                guard head.seq > from else { continue }
                guard let run = runs[head.device], run.first <= from + 1, run.last >= head.seq else { return nil }
                for seq in (from + 1)...run.last {
                    let bytes = run.ops[Int(seq - run.first)]
                    if !out.isEmpty, size + bytes.count > maxBytes { return out }
                    size += bytes.count
                    out.append((OpID(device: head.device, seq: seq), bytes))
                    if out.count >= limit { return out }
                }
            }
            return out
        }
    }

    /// The heads a fetch looks at, in device order: those of `onlyDevices` (each found by its place in the sorted
    /// heads, not by a look at every head), or every head. SQLite's read and this one look at the same.
    static func wanted(
        _ heads: [(device: PublicKey, seq: UInt64)], _ onlyDevices: Set<PublicKey>?
    ) -> [(device: PublicKey, seq: UInt64)] {
        guard let onlyDevices else { return heads }
        return onlyDevices.sorted().compactMap { find($0, in: heads) }
    }

    /// `device`'s head in `heads` (sorted by device), if it has one.
    static func find(_ device: PublicKey, in heads: [(device: PublicKey, seq: UInt64)]) -> (device: PublicKey, seq: UInt64)? {
        var low = 0
        var high = heads.count
        while low < high {
            let middle = (low + high) / 2
            if heads[middle].device < device { low = middle + 1 } else { high = middle }
        }
        if low < heads.count, heads[low].device == device { return heads[low] }
        // Not in order after all (a caller's own list): look at each.
        return heads.first { $0.device == device }
    }

    /// The space's fork mark as last read, if no commit came since.
    func forkMark(_ space: SpaceID) -> Int? { state.withLock { $0.forkMarks[space] } }

    /// The generation now, to hand back with a fork mark read after it (``keep(forkMark:of:readAt:)``).
    var generation: Int { state.withLock { $0.generation } }

    /// Keeps a fork mark read in a snapshot taken after `generation`, unless a commit came since.
    func keep(forkMark: Int, of space: SpaceID, readAt generation: Int) {
        state.withLock { state in
            if state.generation == generation { state.forkMarks[space] = forkMark }
        }
    }

    /// How many ops are kept (for tests).
    var keptCount: Int { state.withLock { $0.count } }
}
