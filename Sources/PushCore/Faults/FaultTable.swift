/// A project's faults, in creation order: the first that fires on an attempt decides it.
struct FaultTable: Sendable {
    /// The most faults a project keeps (docs/faults.md): every send of the project goes through
    /// them in order, so thousands would slow each one.
    static let maximumCount = 1_000

    private(set) var faults: [Fault] = []
    private var nextID = 1

    var isEmpty: Bool { faults.isEmpty }

    /// The id the next fault gets.
    var nextFaultID: Int { nextID }

    init() {}

    /// A table as a state snapshot kept it: `faults` in id order, all below `nextID`.
    init(restoring faults: [Fault], nextID: Int) {
        self.faults = faults
        self.nextID = nextID
    }

    mutating func add(_ spec: FaultSpec, seed: UInt64) -> Fault {
        let fault = Fault(id: nextID, spec: spec, seed: seed)
        nextID += 1
        faults.append(fault)
        return fault
    }

    func fault(id: Int) -> Fault? {
        faults.first { $0.id == id }
    }

    /// Removes and returns the fault with this id; nil when there is none.
    mutating func remove(id: Int) -> Fault? {
        guard let index = faults.firstIndex(where: { $0.id == id }) else { return nil }
        return faults.remove(at: index)
    }

    mutating func removeAll() {
        faults.removeAll()
    }

    /// The first fault that fires on `send` (a send or a token request), counted; later faults
    /// do not see the attempt.
    mutating func fire(on send: FaultedSend) -> FiredFault? {
        for index in faults.indices where faults[index].fires(on: send) {
            let spec = faults[index].spec
            return FiredFault(
                error: spec.error, retryAfterSeconds: spec.retryAfterSeconds, delayMilliseconds: spec.delayMilliseconds,
                connection: spec.connection, faultID: faults[index].id)
        }
        return nil
    }
}
