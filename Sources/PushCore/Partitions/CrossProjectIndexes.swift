import Locking
import Synchronization

/// What crosses projects, behind one lock of its own: the projects holding each APNs device
/// token (an APNs push names no project, and must not visit every project to find its device),
/// the projects with a `serviceAccount` fault for each email (a token request names no project
/// either) and how many faults the projects hold together.
///
/// Changed by a project's registrations, uninstalls and faults while that project's locks are held
/// (the lock order puts this lock last), read by an APNs push only when the device is not in the
/// default project, and by a token request only while some project has a fault. Within a project
/// an APNs token is never forgotten (an uninstalled device's stays, for Unregistered), so entries
/// go only when their project goes.
final class CrossProjectIndexes: Sendable {
    struct Tables: Sendable {
        var projectsByAPNsToken = TokenTable<ProjectIDSet>()
        /// Keyed by `String` (not `TokenTable`): an email may be any text.
        var projectsByFaultedServiceAccount: [String: ProjectIDSet] = [:]
        var faultCount = 0
    }

    let tables = Locked(Tables())
    /// Whether any project has a fault; written under the lock, read without it by every send.
    let faultsPresent = Atomic<Bool>(false)

    /// The projects that hold (or held) APNs token `apnsToken` (normalized), in id order.
    func projects(holdingAPNsToken apnsToken: String) -> [String] {
        tables.withLock { $0.projectsByAPNsToken[apnsToken]?.ids ?? [] }
    }

    /// The projects with a `serviceAccount` fault for `email`, in id order.
    func projects(faultingServiceAccount email: String) -> [String] {
        tables.withLock { $0.projectsByFaultedServiceAccount[email]?.ids ?? [] }
    }

    /// Notes that `project` now holds APNs token `apnsToken` (normalized).
    func noteAPNsToken(_ apnsToken: String, in project: String) {
        tables.withLock { $0.projectsByAPNsToken.insert(project, for: apnsToken) }
    }

    /// Notes a fault just added to `project`.
    func noteAdded(_ fault: Fault, in project: String) {
        tables.withLock { tables in
            tables.add(fault, in: project)
            faultsPresent.store(true, ordering: .relaxed)
        }
    }

    /// Notes faults just removed from `project`, whose faults are now `remaining`.
    func noteRemoved(_ faults: [Fault], from project: String, remaining: FaultTable) {
        tables.withLock { tables in
            tables.remove(faults, from: project, remaining: remaining)
            faultsPresent.store(tables.faultCount > 0, ordering: .relaxed)
        }
    }

    /// Forgets the entries of `project`, which is gone.
    func forget(_ project: ProjectState) {
        tables.withLock { tables in
            for apnsToken in project.apnsTokens {
                tables.projectsByAPNsToken.remove(project.projectID, for: apnsToken)
            }
            tables.remove(project.faults.faults, from: project.projectID, remaining: FaultTable())
            faultsPresent.store(tables.faultCount > 0, ordering: .relaxed)
        }
    }

    /// Builds every index again from `projects` (a state import, a reset of everything).
    func rebuild(from projects: some Sequence<ProjectState>) {
        tables.withLock { tables in
            tables = Tables()
            for project in projects {
                for apnsToken in project.apnsTokens {
                    tables.projectsByAPNsToken.insert(project.projectID, for: apnsToken)
                }
                for fault in project.faults.faults { tables.add(fault, in: project.projectID) }
            }
            faultsPresent.store(tables.faultCount > 0, ordering: .relaxed)
        }
    }
}

extension CrossProjectIndexes.Tables {
    fileprivate mutating func add(_ fault: Fault, in project: String) {
        faultCount += 1
        if case .serviceAccount(let email) = fault.spec.match {
            projectsByFaultedServiceAccount[email, default: ProjectIDSet()].insert(project)
        }
    }

    fileprivate mutating func remove(_ faults: [Fault], from project: String, remaining: FaultTable) {
        faultCount -= faults.count
        for fault in faults {
            guard case .serviceAccount(let email) = fault.spec.match,
                !remaining.faults.contains(where: { $0.spec.match == fault.spec.match })
            else { continue }
            projectsByFaultedServiceAccount[email]?.remove(project)
            if projectsByFaultedServiceAccount[email]?.isEmpty == true { projectsByFaultedServiceAccount[email] = nil }
        }
    }
}

extension TokenTable<ProjectIDSet> {
    /// Adds `project` to the projects of `token`.
    mutating func insert(_ project: String, for token: String) {
        self[token, default: ProjectIDSet()].insert(project)
    }

    /// Removes `project` from the projects of `token`, and the entry once it names none.
    mutating func remove(_ project: String, for token: String) {
        guard var projects = removeValue(forKey: token) else { return }
        projects.remove(project)
        if !projects.isEmpty { self[token] = projects }
    }
}
