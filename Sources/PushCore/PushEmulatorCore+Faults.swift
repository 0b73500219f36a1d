/// Fault injection (`/emulator/v1/projects/{project}/faults`, docs/faults.md).
extension PushEmulatorCore {
    /// Stores a fault for the project; it applies to the project's next sends.
    /// - Throws: 400 FAILED_PRECONDITION when the project has `FaultTable.maximumCount` faults, and
    ///   `CounterExhausted`'s 500 when its fault ids are used up (docs/state.md).
    @discardableResult
    public func addFault(project: String, _ spec: FaultSpec) throws(GoogleError) -> Fault {
        try withProject(creating: project) { projectState -> Result<Fault, GoogleError> in
            let count = projectState.faults.faults.count
            if count >= FaultTable.maximumCount {
                return .failure(GoogleError(
                    status: .failedPrecondition,
                    message: "Project \(project) has \(count) faults, the most a project keeps; delete some first."))
            }
            if let exhausted = Counter.check(.faultID, at: projectState.faults.nextFaultID) {
                return .failure(exhausted.googleError)
            }
            let seed = projectState.random.next()
            let fault = projectState.faults.add(spec, seed: seed)
            indexes.noteAdded(fault, in: project)
            return .success(fault)
        }.get()
    }

    /// A page of the project's faults, oldest first.
    public func faults(project: String, page: PageRequest = PageRequest()) throws(PagingError) -> Page<Fault> {
        let faults = withProjectPart(project) { $0.faults.faults } ?? []
        return try page.page(of: faults, position: \.id)
    }

    /// One fault by id, or nil.
    public func fault(project: String, id: Int) -> Fault? {
        withProjectPart(project) { $0.faults.fault(id: id) } ?? nil
    }

    /// Deletes one fault; false when there is none with this id.
    @discardableResult
    public func deleteFault(project: String, id: Int) -> Bool {
        withProjectPart(project) { projectState in
            guard let removed = projectState.faults.remove(id: id) else { return false }
            indexes.noteRemoved([removed], from: project, remaining: projectState.faults)
            return true
        } ?? false
    }

    /// Deletes every fault of the project.
    public func deleteFaults(project: String) {
        withProjectPart(project) { projectState in
            let removed = projectState.faults.faults
            projectState.faults.removeAll()
            indexes.noteRemoved(removed, from: project, remaining: FaultTable())
        }
    }

    /// The fault that fires on this attempt, counted (nil: the send goes on as usual). Costs
    /// one atomic read while no project has a fault.
    public func fireFault(project: String, on send: FaultedSend) -> FiredFault? {
        guard indexes.faultsPresent.load(ordering: .relaxed) else { return nil }
        let fired = withProjectPart(project) { projectState -> FiredFault? in
            guard !projectState.faults.isEmpty else { return nil }
            return projectState.faults.fire(on: send)
        } ?? nil
        if fired != nil { faultsFired.count(send.isAPNs ? .apns : .fcm) }
        return fired
    }

    /// The fault that fires on a token request of `serviceAccount` (the assertion's `iss`),
    /// counted. A token request names no project: the faults of the projects that have a
    /// `serviceAccount` fault for this email (an index, not a walk over every project) are tried
    /// in project-id order, each project's oldest first. Not counted in `faultsFired` (send
    /// faults only).
    public func fireFault(onTokenRequestOf serviceAccount: String) -> FiredFault? {
        guard indexes.faultsPresent.load(ordering: .relaxed) else { return nil }
        let attempt = FaultedSend.tokenRequest(serviceAccount: serviceAccount)
        for project in indexes.projects(faultingServiceAccount: serviceAccount) {
            if let fired = withProjectPart(project, { $0.faults.fire(on: attempt) }) ?? nil { return fired }
        }
        return nil
    }
}
