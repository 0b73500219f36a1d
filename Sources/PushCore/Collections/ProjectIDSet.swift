/// Project ids, each once, in ascending order: the projects an index entry names
/// (`CoreState.projectsByAPNsToken`, `CoreState.projectsByFaultedServiceAccount`). Most entries
/// name one project, so a sorted array beats a set.
struct ProjectIDSet: Sendable, Equatable {
    /// The ids, ascending.
    private(set) var ids: [String] = []

    /// Whether it names no project.
    var isEmpty: Bool { ids.isEmpty }

    /// Adds `id` where the order puts it (nothing when it is there).
    mutating func insert(_ id: String) {
        let position = firstPosition(notBelow: id)
        if position == ids.endIndex || ids[position] != id { ids.insert(id, at: position) }
    }

    /// Removes `id` (nothing when it is not there).
    mutating func remove(_ id: String) {
        let position = firstPosition(notBelow: id)
        if position != ids.endIndex, ids[position] == id { ids.remove(at: position) }
    }

    /// The position of the first id not below `id`, by bisection.
    private func firstPosition(notBelow id: String) -> Int {
        var low = 0
        var high = ids.count
        while low < high {
            let middle = (low + high) / 2
            if ids[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
