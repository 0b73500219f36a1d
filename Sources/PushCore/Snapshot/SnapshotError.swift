/// Why a state snapshot was refused: where in it (`projects[0].devices[2].token`) and what is
/// wrong there. An import that throws this has changed nothing.
public struct SnapshotError: Error, Equatable, CustomStringConvertible, Sendable {
    /// Where the problem is, as a path into the snapshot's JSON; empty for the whole document.
    public var path: String
    /// What is wrong there.
    public var problem: String

    /// Makes an error at `path`.
    public init(path: String, _ problem: String) {
        self.path = path
        self.problem = problem
    }

    /// `projects[0].devices[2].token: expected a string, got a number`.
    public var description: String { path.isEmpty ? problem : "\(path): \(problem)" }
}
