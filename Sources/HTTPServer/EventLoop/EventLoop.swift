#if canImport(Glibc)
import Glibc
#endif
import CShims
import Locking
import Synchronization

/// One thread running an epoll loop. Connections live on one loop for their whole life; other
/// threads hand work in with `execute`, which queues it and wakes the loop through an eventfd.
///
/// `@unchecked Sendable`: everything but `pendingTasks` (`Locked`) and the descriptors (immutable
/// after init) is touched only from the loop's own thread.
public final class EventLoop: @unchecked Sendable {
    /// How often timeouts are checked.
    static let sweepInterval: UInt64 = 250_000_000

    let epollFD: Int32
    let wakeFD: Int32
    private let pendingTasks = Locked<[@Sendable () -> Void]>([])
    private var handlers: [LoopHandler?] = []
    private var handlerCount = 0
    private var interests: [UInt32] = []
    private var afterBatch: [() -> Void] = []
    /// Scheduled tasks, soonest last (so the next one pops off the end).
    private var timers: [(deadline: UInt64, task: @Sendable () -> Void)] = []
    private var nextSweep: UInt64 = 0
    private var stopping = false
    private var stopDeadline: UInt64 = 0
    private let loopThread = Atomic<UInt>(0)
    private var joinHandle: pthread_t?
    private let finished = Locked<Bool>(false)

    init() throws(SystemError) {
        epollFD = try blockingSyscall("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
        wakeFD = try blockingSyscall("eventfd") { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) }
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = wakeFD
        try blockingSyscall("epoll_ctl(eventfd)") { epoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, &event) }
    }

    deinit {
        Socket.close(wakeFD)
        Socket.close(epollFD)
    }

    /// True when called on this loop's thread.
    var inLoop: Bool {
        loopThread.load(ordering: .relaxed) == UInt(pthread_self())
    }

    /// Runs `task` on the loop's thread, soon. Safe from any thread.
    public func execute(_ task: @escaping @Sendable () -> Void) {
        let wasEmpty = pendingTasks.withLock { tasks in
            tasks.append(task)
            return tasks.count == 1
        }
        if wasEmpty {
            var one: UInt64 = 1
            _ = Glibc.write(wakeFD, &one, 8)
        }
    }

    /// Runs `task` on the loop's thread after `milliseconds` (never, when that is past what the
    /// clock counts). Safe from any thread.
    public func schedule(afterMilliseconds milliseconds: Int, _ task: @escaping @Sendable () -> Void) {
        let deadline = MonotonicClock.deadline(after: MonotonicClock.nanoseconds(milliseconds: milliseconds))
        execute { [self] in
            var timers = moveOut(&self.timers, leaving: [])
            let index = timers.firstIndex(where: { $0.deadline <= deadline }) ?? timers.endIndex
            timers.insert((deadline, task), at: index)
            self.timers = timers
        }
    }

    /// Registers a handler for readiness on its descriptor with the given epoll interest.
    func register(_ handler: LoopHandler, readable: Bool = true, writable: Bool = false) throws(SystemError) {
        let fd = Int(handler.fd)
        if fd >= handlers.count {
            let size = max(fd + 1, handlers.count * 2, 64)
            // Grown as locals moved out of the properties (`moveOut(_:leaving:)`).
            var handlers = moveOut(&self.handlers, leaving: [])
            handlers += Array(repeating: nil, count: size - handlers.count)
            self.handlers = handlers
            var interests = moveOut(&self.interests, leaving: [])
            interests += Array(repeating: 0, count: size - interests.count)
            self.interests = interests
        }
        var event = epoll_event()
        event.events = Self.mask(readable: readable, writable: writable)
        event.data.fd = handler.fd
        try blockingSyscall("epoll_ctl(add)") { epoll_ctl(epollFD, EPOLL_CTL_ADD, handler.fd, &event) }
        set(handler, events: event.events, at: fd)
        handlerCount += 1
    }

    /// Changes what a registered descriptor is watched for; a no-op when nothing changes.
    func setInterest(_ fd: Int32, readable: Bool, writable: Bool) {
        let mask = Self.mask(readable: readable, writable: writable)
        guard Int(fd) < interests.count, interests[Int(fd)] != mask else { return }
        var event = epoll_event()
        event.events = mask
        event.data.fd = fd
        if epoll_ctl(epollFD, EPOLL_CTL_MOD, fd, &event) == 0 {
            var interests = moveOut(&self.interests, leaving: [])
            interests[Int(fd)] = mask
            self.interests = interests
        }
    }

    /// Forgets a handler. The caller closes the descriptor afterwards.
    func unregister(_ fd: Int32) {
        guard Int(fd) < handlers.count, handlers[Int(fd)] != nil else { return }
        _ = epoll_ctl(epollFD, EPOLL_CTL_DEL, fd, nil)
        set(nil, events: 0, at: Int(fd))
        handlerCount -= 1
    }

    /// Stores a descriptor's handler and interest, changing the arrays as locals moved out of
    /// the properties (`moveOut(_:leaving:)`): `run` reads `handlers` for every event.
    private func set(_ handler: LoopHandler?, events: UInt32, at fd: Int) {
        var handlers = moveOut(&self.handlers, leaving: [])
        handlers[fd] = handler
        self.handlers = handlers
        var interests = moveOut(&self.interests, leaving: [])
        interests[fd] = events
        self.interests = interests
    }

    /// Adds work to run once after each batch of events (e.g. flushing buffered log lines).
    func addAfterBatch(_ work: @escaping () -> Void) {
        var afterBatch = moveOut(&self.afterBatch, leaving: [])
        afterBatch.append(work)
        self.afterBatch = afterBatch
    }

    private static func mask(readable: Bool, writable: Bool) -> UInt32 {
        // EPOLLRDHUP only with EPOLLIN: level-triggered, it would otherwise wake a paused reader forever.
        var mask: UInt32 = 0
        if readable { mask |= EPOLLIN.rawValue | EPOLLRDHUP.rawValue }
        if writable { mask |= EPOLLOUT.rawValue }
        return mask
    }

    /// Starts the loop on a new thread.
    func start(name: String) {
        let box = Unmanaged.passRetained(self)
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { raw in
            let loop = Unmanaged<EventLoop>.fromOpaque(raw!).takeRetainedValue()
            loop.run()
            return nil
        }, box.toOpaque())
        precondition(created == 0, "pthread_create failed: \(created)")
        joinHandle = thread
        _ = name
    }

    /// Waits for the loop's thread to end.
    func join() {
        guard let joinHandle else { return }
        pthread_join(joinHandle, nil)
    }

    /// Asks the loop to finish its connections gracefully and stop, force-closing whatever is left
    /// after `graceSeconds`.
    public func shutdownGracefully(graceSeconds: Double) {
        execute { [self] in
            guard !stopping else { return }
            stopping = true
            stopDeadline = MonotonicClock.deadline(after: MonotonicClock.nanoseconds(seconds: graceSeconds))
            for case let handler? in handlers { handler.beginShutdown() }
        }
    }

    private func run() {
        loopThread.store(UInt(pthread_self()), ordering: .relaxed)
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        nextSweep = MonotonicClock.now() + Self.sweepInterval
        while true {
            let now = MonotonicClock.now()
            let wake = min(nextSweep, timers.last?.deadline ?? .max)
            // The next sweep bounds the wait, but an epoll timeout must fit Int32 whatever wakes it.
            let timeout = now >= wake ? 0 : Int32(min((wake - now) / 1_000_000, UInt64(Int32.max - 1))) + 1
            let count = events.withUnsafeMutableBufferPointer { buffer in
                epoll_wait(epollFD, buffer.baseAddress, Int32(buffer.count), timeout)
            }
            if count > 0 {
                for index in 0..<Int(count) {
                    let event = events[index]
                    let fd = event.data.fd
                    if fd == wakeFD {
                        drainWakeups()
                        continue
                    }
                    guard Int(fd) < handlers.count, let handler = handlers[Int(fd)] else { continue }
                    let flags = event.events
                    handler.handleEvent(
                        readable: flags & (EPOLLIN.rawValue | EPOLLRDHUP.rawValue) != 0,
                        writable: flags & EPOLLOUT.rawValue != 0,
                        hangup: flags & (EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0
                    )
                }
            }
            runPendingTasks()
            runDueTimers()
            for work in afterBatch { work() }
            let after = MonotonicClock.now()
            if after >= nextSweep {
                nextSweep = after + Self.sweepInterval
                for case let handler? in handlers { handler.checkDeadline(now: after) }
                if stopping && after >= stopDeadline {
                    for case let handler? in handlers { handler.forceClose() }
                }
            }
            if stopping && handlerCount == 0 {
                runPendingTasks()
                for work in afterBatch { work() }
                break
            }
        }
        // Nothing runs these any more. Kept, they would hold this loop in a cycle with whatever
        // they capture: a stream's heartbeat timer holds the stream, which holds the loop.
        timers = []
        afterBatch = []
        pendingTasks.withLock { $0.removeAll() }
    }

    private func runDueTimers() {
        let now = MonotonicClock.now()
        while let last = timers.last, last.deadline <= now {
            var timers = moveOut(&self.timers, leaving: [])
            timers.removeLast()
            self.timers = timers
            last.task()
        }
    }

    private func drainWakeups() {
        var value: UInt64 = 0
        _ = Glibc.read(wakeFD, &value, 8)
    }

    private func runPendingTasks() {
        let tasks = pendingTasks.withLock { tasks -> [@Sendable () -> Void] in
            defer { tasks.removeAll(keepingCapacity: true) }
            return tasks
        }
        for task in tasks { task() }
    }
}

/// A value that may only be used on one event loop's thread, carried across threads in a
/// `Sendable` closure that the loop runs.
///
/// `@unchecked Sendable`: `value` is only read inside `loop.execute` closures or when
/// `loop.inLoop` is true, which the accessor asserts.
struct LoopBound<Value>: @unchecked Sendable {
    let loop: EventLoop
    private let stored: Value

    init(_ value: Value, loop: EventLoop) {
        self.stored = value
        self.loop = loop
    }

    var value: Value {
        assert(loop.inLoop, "LoopBound value used off its loop")
        return stored
    }
}
