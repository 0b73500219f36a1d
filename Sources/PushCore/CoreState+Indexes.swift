/// The cross-project indexes (`projectsByAPNsToken`, `projectsByFaultedServiceAccount`,
/// `faultCount`), kept right by every change of a project's APNs tokens and faults. Within a
/// project an APNs token is never forgotten (an uninstalled device's stays, for Unregistered),
/// so entries go only when their project goes.
extension CoreState {
    /// Notes that `project` now holds APNs token `apnsToken` (normalized).
    mutating func noteAPNsToken(_ apnsToken: String, in project: String) {
        projectsByAPNsToken.insert(project, for: apnsToken)
    }

    /// Notes a fault just added to `project`.
    mutating func noteAdded(_ fault: Fault, in project: String) {
        faultCount += 1
        if case .serviceAccount(let email) = fault.spec.match {
            projectsByFaultedServiceAccount[email, default: ProjectIDSet()].insert(project)
        }
    }

    /// Notes faults just removed from `project`, whose faults are now `remaining`.
    mutating func noteRemoved(_ faults: [Fault], from project: String, remaining: FaultTable) {
        faultCount -= faults.count
        for fault in faults {
            guard case .serviceAccount(let email) = fault.spec.match,
                !remaining.faults.contains(where: { $0.spec.match == fault.spec.match })
            else { continue }
            forget(project, inIndexOf: email)
        }
    }

    /// Forgets `project`'s entries, the project being gone.
    mutating func forgetIndexes(of project: ProjectState) {
        for apnsToken in project.tokenByAPNsToken.tokens + project.uninstalledAPNsTokens.tokens {
            projectsByAPNsToken.remove(project.projectID, for: apnsToken)
        }
        noteRemoved(project.faults.faults, from: project.projectID, remaining: FaultTable())
    }

    /// Replaces every project (a state import, a reset of everything) and builds the indexes
    /// again from them.
    mutating func replaceProjects(with projects: [String: ProjectState]) {
        self.projects = ProjectTable(projects)
        projectsByAPNsToken.removeAll()
        projectsByFaultedServiceAccount.removeAll()
        faultCount = 0
        for (id, project) in projects {
            for apnsToken in project.tokenByAPNsToken.tokens + project.uninstalledAPNsTokens.tokens {
                noteAPNsToken(apnsToken, in: id)
            }
            for fault in project.faults.faults { noteAdded(fault, in: id) }
        }
    }

    private mutating func forget(_ project: String, inIndexOf email: String) {
        projectsByFaultedServiceAccount[email]?.remove(project)
        if projectsByFaultedServiceAccount[email]?.isEmpty == true { projectsByFaultedServiceAccount[email] = nil }
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
