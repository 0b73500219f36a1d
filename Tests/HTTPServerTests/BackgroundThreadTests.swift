import Synchronization
import XCTest
@testable import HTTPServer

#if canImport(Glibc)
import Glibc
#endif

/// Set by the thread-specific destructor of `BackgroundThreadTests`: a thread's last act as it
/// exits, as OpenSSL frees its per-thread state.
private let destructorsRun = Atomic<Int>(0)

/// The thread of a webhook or a repeating task: it sleeps until woken or stopped, and a stop that
/// waits returns only once the thread has ended for good.
final class BackgroundThreadTests: XCTestCase {
    func testABackgroundThreadSleepsUntilWokenOrStopped() {
        let woken = Atomic<Int>(0)
        let thread = BackgroundThread.start { thread in
            while !thread.isStopped {
                if thread.sleep(milliseconds: 60_000), !thread.isStopped { woken.add(1, ordering: .relaxed) }
            }
        }
        thread.wake()
        XCTAssertTrue(poll { woken.load(ordering: .relaxed) == 1 })
        // Woken by the stop, not a minute later.
        let stopping = milliseconds()
        thread.stop()
        XCTAssertLessThan(milliseconds() - stopping, 30_000)
    }

    /// The webhooks' threads at shutdown: had the stop not waited for the thread's exit, its
    /// per-thread state (OpenSSL's random generators after a TLS request) was still being freed
    /// as the process exited, which AddressSanitizer reported as leaked.
    func testAStopThatWaitsReturnsOnceTheThreadsExitHasRun() {
        var key = pthread_key_t()
        XCTAssertEqual(pthread_key_create(&key, { _ in destructorsRun.add(1, ordering: .relaxed) }), 0)
        defer { pthread_key_delete(key) }
        let before = destructorsRun.load(ordering: .relaxed)
        let threads = (0..<4).map { _ in
            BackgroundThread.start { [key] thread in
                pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
                while !thread.isStopped { thread.sleep(milliseconds: 60_000) }
            }
        }
        XCTAssertEqual(BackgroundThread.stop(threads, waitingAtMostMilliseconds: 30_000), 0)
        XCTAssertEqual(destructorsRun.load(ordering: .relaxed) - before, 4)
    }

    /// A thread in the middle of something long (a webhook's request to a target that hangs) does
    /// not hold the stop past its deadline; it ends on its own later.
    func testAStopGivesUpOnAThreadThatDoesNotEndInTime() {
        let release = Atomic<Bool>(false)
        let ended = Atomic<Bool>(false)
        let stuck = BackgroundThread.start { _ in
            while !release.load(ordering: .relaxed) { usleep(1_000) }
            ended.store(true, ordering: .relaxed)
        }
        let idle = BackgroundThread.start { thread in
            while !thread.isStopped { thread.sleep(milliseconds: 60_000) }
        }
        XCTAssertEqual(BackgroundThread.stop([stuck, idle], waitingAtMostMilliseconds: 200), 1)
        XCTAssertFalse(ended.load(ordering: .relaxed))
        release.store(true, ordering: .relaxed)
        XCTAssertTrue(poll { ended.load(ordering: .relaxed) })
    }

    func testASleepEndsWhenItsTimeHasPassed() {
        let slept = Atomic<Int>(-1)
        let thread = BackgroundThread.start { thread in
            let started = MonotonicClock.now()
            thread.sleep(milliseconds: 100)
            slept.store(Int((MonotonicClock.now() - started) / 1_000_000), ordering: .relaxed)
        }
        XCTAssertTrue(poll { slept.load(ordering: .relaxed) >= 0 })
        XCTAssertGreaterThanOrEqual(slept.load(ordering: .relaxed), 100)
        thread.stop()
    }

    /// A webhook's pause between tries: a wake left on the semaphore (one posted while the
    /// thread was busy) cut the first pause short; a stop still ends it at once.
    func testAPauseLastsItsTimeUnlessStopped() {
        let paused = Atomic<Int>(-1)
        let thread = BackgroundThread.start { thread in
            thread.wake()
            let started = MonotonicClock.now()
            thread.pause(milliseconds: 200)
            paused.store(Int((MonotonicClock.now() - started) / 1_000_000), ordering: .relaxed)
            thread.pause(milliseconds: 600_000)
        }
        XCTAssertTrue(poll { paused.load(ordering: .relaxed) >= 0 })
        XCTAssertGreaterThanOrEqual(paused.load(ordering: .relaxed), 200)
        let stopping = milliseconds()
        thread.stop()
        XCTAssertLessThan(milliseconds() - stopping, 30_000)
    }

    /// Polls `condition` for up to 30 s (a busy machine is slow); its last answer.
    private func poll(_ condition: () -> Bool) -> Bool {
        let deadline = milliseconds() + 30_000
        while !condition(), milliseconds() < deadline { usleep(1_000) }
        return condition()
    }

    private func milliseconds() -> Int { Int(MonotonicClock.now() / 1_000_000) }
}
