import Synchronization

/// Fault injection (`/emulator/v1/projects/{project}/faults`, docs/faults.md).
extension PushEmulatorCore {
    /// Stores a fault for the project; it applies to the project's next sends.
    /// - Throws: 400 FAILED_PRECONDITION when the project has `FaultTable.maximumCount` faults, and
    ///   `CounterExhausted`'s 500 when its fault ids are used up (docs/state.md).
    @discardableResult
    public func addFault(project: String, _ spec: FaultSpec) throws(GoogleError) -> Fault {
        try state.withLock { state throws(GoogleError) in
            if let count = state.projects[project]?.faults.faults.count, count >= FaultTable.maximumCount {
                throw GoogleError(
                    status: .failedPrecondition,
                    message: "Project \(project) has \(count) faults, the most a project keeps; delete some first.")
            }
            if let exhausted = Counter.check(.faultID, at: state.projects[project]?.faults.nextFaultID ?? 1) {
                throw exhausted.googleError
            }
            let seed = state.identifiers.random.next()
            let fault = state.projects[project, default: ProjectState(projectID: project)].faults.add(spec, seed: seed)
            state.noteAdded(fault, in: project)
            faultsPresent.store(true, ordering: .relaxed)
            return fault
        }
    }

    /// A page of the project's faults, oldest first.
    public func faults(project: String, page: PageRequest = PageRequest()) throws(PagingError) -> Page<Fault> {
        let faults = state.withLock { $0.projects[project]?.faults.faults ?? [] }
        return try page.page(of: faults, position: \.id)
    }

    /// One fault by id, or nil.
    public func fault(project: String, id: Int) -> Fault? {
        state.withLock { $0.projects[project]?.faults.fault(id: id) }
    }

    /// Deletes one fault; false when there is none with this id.
    @discardableResult
    public func deleteFault(project: String, id: Int) -> Bool {
        state.withLock { state in
            guard let removed = state.projects[project]?.faults.remove(id: id) else { return false }
            state.noteRemoved([removed], from: project, remaining: state.projects[project]!.faults)
            Self.noteFaults(in: state, flag: faultsPresent)
            return true
        }
    }

    /// Deletes every fault of the project.
    public func deleteFaults(project: String) {
        state.withLock { state in
            guard let removed = state.projects[project]?.faults.faults else { return }
            state.projects[project]!.faults.removeAll()
            state.noteRemoved(removed, from: project, remaining: FaultTable())
            Self.noteFaults(in: state, flag: faultsPresent)
        }
    }

    /// The fault that fires on this attempt, counted (nil: the send goes on as usual). Costs
    /// one atomic read while no project has a fault.
    public func fireFault(project: String, on send: FaultedSend) -> FiredFault? {
        guard faultsPresent.load(ordering: .relaxed) else { return nil }
        return state.withLock { state in
            guard state.projects[project]?.faults.isEmpty == false else { return nil }
            let fired = state.projects[project]?.faults.fire(on: send)
            if fired != nil { state.faultsFired[send.isAPNs ? .apns : .fcm, default: 0] += 1 }
            return fired
        }
    }

    /// The fault that fires on a token request of `serviceAccount` (the assertion's `iss`),
    /// counted. A token request names no project: the faults of the projects that have a
    /// `serviceAccount` fault for this email (an index, not a walk over every project) are tried
    /// in project-id order, each project's oldest first. Not counted in `faultsFired` (send
    /// faults only).
    public func fireFault(onTokenRequestOf serviceAccount: String) -> FiredFault? {
        guard faultsPresent.load(ordering: .relaxed) else { return nil }
        return state.withLock { state in
            let attempt = FaultedSend.tokenRequest(serviceAccount: serviceAccount)
            for project in state.projectsByFaultedServiceAccount[serviceAccount]?.ids ?? [] {
                if let fired = state.projects[project]?.faults.fire(on: attempt) { return fired }
            }
            return nil
        }
    }

    /// Updates the flag that lets sends skip the lock while no project has a fault.
    static func noteFaults(in state: CoreState, flag: borrowing Atomic<Bool>) {
        flag.store(state.faultCount > 0, ordering: .relaxed)
    }
}
