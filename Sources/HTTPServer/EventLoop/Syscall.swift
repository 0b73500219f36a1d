#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A failed system call: its name and `errno`.
public struct SystemError: Error, CustomStringConvertible, Sendable {
    /// The call that failed, e.g. `bind`.
    public let call: String
    /// The `errno` it set.
    public let errno: Int32

    /// "bind: Address already in use (errno 98)".
    public var description: String {
        "\(call): \(String(cString: strerror(errno))) (errno \(errno))"
    }
}

/// What a non-blocking call did: its result, or nothing because it would have blocked.
enum IOResult<Value> {
    case done(Value)
    case wouldBlock
}

/// The one place system calls are made from: retries `EINTR`, turns `EAGAIN`/`EWOULDBLOCK`
/// into `.wouldBlock`, and every other failure into a typed `SystemError`.
@inline(__always)
func syscall<Value: FixedWidthInteger>(
    _ name: @autoclosure () -> String,
    _ body: () -> Value
) throws(SystemError) -> IOResult<Value> {
    while true {
        let result = body()
        if result >= 0 { return .done(result) }
        let code = Glibc.errno
        switch code {
        case EINTR: continue
        case EAGAIN, EWOULDBLOCK: return .wouldBlock
        default: throw SystemError(call: name(), errno: code)
        }
    }
}

/// `syscall` for calls that never legitimately block (setup calls): `.wouldBlock` is an error too.
@inline(__always)
@discardableResult
func blockingSyscall<Value: FixedWidthInteger>(
    _ name: @autoclosure () -> String,
    _ body: () -> Value
) throws(SystemError) -> Value {
    switch try syscall(name(), body) {
    case .done(let value): return value
    case .wouldBlock: throw SystemError(call: name(), errno: EAGAIN)
    }
}
