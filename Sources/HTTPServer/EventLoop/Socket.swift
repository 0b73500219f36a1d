#if canImport(Glibc)
import Glibc
#endif
import CShims

/// Thin typed wrappers over the socket calls the server makes. Every call goes through `syscall`.
enum Socket {
    /// Opens a non-blocking listening socket bound to `host:port` with `SO_REUSEPORT`,
    /// so that every event loop can have its own listener on the same port. The port must have
    /// been claimed first (`claimPort`).
    static func listen(host: String, port: UInt16, backlog: Int32 = 1024) throws(SystemError) -> Int32 {
        let fd = try bound(host: host, port: port, sharingPort: true)
        do {
            try blockingSyscall("listen") { Glibc.listen(fd, backlog) }
        } catch {
            Socket.close(fd)
            throw error
        }
        return fd
    }

    /// Checks that no other socket has `host:port` and returns the port (the kernel's choice for
    /// 0). `SO_REUSEPORT` lets any process of the same user join a port's listeners, so a second
    /// emulator on a port in use would start and take half of its connections; a socket bound
    /// without it fails with "Address already in use" instead, and is closed again at once.
    static func claimPort(host: String, port: UInt16) throws(SystemError) -> UInt16 {
        let fd = try bound(host: host, port: port, sharingPort: false)
        defer { Socket.close(fd) }
        return port == 0 ? try localPort(fd) : port
    }

    private static func bound(host: String, port: UInt16, sharingPort: Bool) throws(SystemError) -> Int32 {
        let address = try SocketAddress.resolve(host: host, port: port)
        let fd = try blockingSyscall("socket") {
            Glibc.socket(Int32(address.family), Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        }
        do {
            try setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
            if sharingPort { try setOption(fd, SOL_SOCKET, SO_REUSEPORT, 1) }
            if address.family == sa_family_t(AF_INET6) { try setOption(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, 0) }
            _ = try address.withSockAddr { pointer, length throws(SystemError) in
                try blockingSyscall("bind \(host):\(port)") { Glibc.bind(fd, pointer, length) }
            }
        } catch {
            Socket.close(fd)
            throw error
        }
        return fd
    }

    /// Accepts one pending connection as a non-blocking socket, or `.wouldBlock` when none is waiting.
    static func accept(_ listener: Int32) throws(SystemError) -> IOResult<Int32> {
        try syscall("accept4") {
            CShims_accept4(listener, Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue))
        }
    }

    /// Reads into `buffer`; `.done(0)` is end of stream.
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> IOResult<Int> {
        try syscall("read") { Glibc.read(fd, buffer.baseAddress, buffer.count) }
    }

    /// Writes from `buffer`, returning how many bytes the kernel took.
    static func write(_ fd: Int32, from buffer: UnsafeRawBufferPointer) throws(SystemError) -> IOResult<Int> {
        try syscall("send") { Glibc.send(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Looks at the first bytes waiting on `fd` without consuming them.
    static func peek(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> IOResult<Int> {
        try syscall("recv(MSG_PEEK)") { Glibc.recv(fd, buffer.baseAddress, buffer.count, Int32(MSG_PEEK)) }
    }

    /// Opens a blocking connection to `host:port`, to each address of the name in turn until one
    /// takes it; reads and writes on it give up after `timeoutSeconds` (the emulator's own client,
    /// not the server's).
    static func connect(host: String, port: UInt16, timeoutSeconds: Int) throws(SystemError) -> Int32 {
        try connect(to: SocketAddress.resolveAll(host: host, port: port), timeoutSeconds: timeoutSeconds)
    }

    /// Connects to the first of `addresses` that takes the connection, each tried in turn with
    /// its own timeout (a name with an IPv6 and an IPv4 address, and a server on only one of
    /// them); throws the last one's error when none does.
    static func connect(to addresses: [SocketAddress], timeoutSeconds: Int) throws(SystemError) -> Int32 {
        var failure = SystemError(call: "connect: no address", errno: EADDRNOTAVAIL)
        for address in addresses {
            do {
                return try connect(to: address, timeoutSeconds: timeoutSeconds)
            } catch {
                failure = error
            }
        }
        throw failure
    }

    private static func connect(to address: SocketAddress, timeoutSeconds: Int) throws(SystemError) -> Int32 {
        let fd = try blockingSyscall("socket") {
            Glibc.socket(Int32(address.family), Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        }
        do {
            var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
            for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
                try blockingSyscall("setsockopt") {
                    Glibc.setsockopt(fd, SOL_SOCKET, option, &timeout, socklen_t(MemoryLayout<timeval>.size))
                }
            }
            _ = try address.withSockAddr { pointer, length throws(SystemError) in
                try blockingSyscall("connect \(address)") { Glibc.connect(fd, pointer, length) }
            }
        } catch {
            Glibc.close(fd)
            throw error
        }
        return fd
    }

    /// Sets an integer socket option.
    static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) throws(SystemError) {
        var value = value
        try blockingSyscall("setsockopt") {
            Glibc.setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
        }
    }

    /// The port a socket is bound to (to learn the port the kernel chose for port 0).
    static func localPort(_ fd: Int32) throws(SystemError) -> UInt16 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = try withUnsafeMutablePointer(to: &storage) { pointer throws(SystemError) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(SystemError) in
                try blockingSyscall("getsockname") { Glibc.getsockname(fd, address, &length) }
            }
        }
        return SocketAddress(storage: storage).port
    }

    /// The peer's address as text, e.g. `127.0.0.1:51234`.
    static func peerName(_ fd: Int32) -> String {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.getpeername(fd, $0, &length) }
        }
        return result == 0 ? SocketAddress(storage: storage).description : "-"
    }

    /// Closes a descriptor; errors are meaningless here (the descriptor is gone either way).
    static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    /// Sends FIN after whatever was written, keeping the read side open (a lingering close:
    /// docs/server.md, "Closing a connection").
    static func shutdownWrite(_ fd: Int32) {
        _ = Glibc.shutdown(fd, Int32(SHUT_WR))
    }

    /// Closes a connected socket so that the peer sees a reset: `SO_LINGER` with a zero timeout
    /// makes `close` send RST and drop whatever was unsent, instead of FIN.
    static func abort(_ fd: Int32) {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        _ = try? blockingSyscall("setsockopt") {
            Glibc.setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        }
        close(fd)
    }
}

/// An IPv4 or IPv6 socket address.
struct SocketAddress: CustomStringConvertible {
    var storage: sockaddr_storage

    var family: sa_family_t { storage.ss_family }

    var port: UInt16 {
        withUnsafePointer(to: storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }

    var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        return withUnsafePointer(to: storage) { pointer -> String in
            if family == sa_family_t(AF_INET6) {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    var raw = address.pointee.sin6_addr
                    inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
                    return "[\(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))]:\(port)"
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                var raw = address.pointee.sin_addr
                inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
                return "\(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)):\(port)"
            }
        }
    }

    init(storage: sockaddr_storage) {
        self.storage = storage
    }

    /// Parses a numeric address, or resolves `localhost` to 127.0.0.1 and other names through the
    /// system's resolver (a webhook's host in a compose network, say): the first address.
    static func resolve(host: String, port: UInt16) throws(SystemError) -> SocketAddress {
        // `resolveAll` throws rather than answer none.
        try resolveAll(host: host, port: port)[0]
    }

    /// `resolve`'s addresses, every one the resolver gives for a name, in its order.
    static func resolveAll(host: String, port: UInt16) throws(SystemError) -> [SocketAddress] {
        var storage = sockaddr_storage()
        let name = host == "localhost" ? "127.0.0.1" : host.trimmingBrackets
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, name, &v4) == 1 {
            withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    address.pointee.sin_family = sa_family_t(AF_INET)
                    address.pointee.sin_port = port.bigEndian
                    address.pointee.sin_addr = v4
                }
            }
        } else if inet_pton(AF_INET6, name, &v6) == 1 {
            withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    address.pointee.sin6_family = sa_family_t(AF_INET6)
                    address.pointee.sin6_port = port.bigEndian
                    address.pointee.sin6_addr = v6
                }
            }
        } else {
            return try lookUp(name, port: port)
        }
        return [SocketAddress(storage: storage)]
    }

    /// The addresses `getaddrinfo` gives for `name`, each once, in its order (at least one).
    private static func lookUp(_ name: String, port: UInt16) throws(SystemError) -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(name, nil, &hints, &results)
        guard status == 0, results != nil else {
            throw SystemError(call: "getaddrinfo \(name): \(String(cString: gai_strerror(status)))", errno: EINVAL)
        }
        defer { freeaddrinfo(results) }
        var addresses: [SocketAddress] = []
        var next = results
        while let entry = next {
            next = entry.pointee.ai_next
            let family = Int32(entry.pointee.ai_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            var storage = sockaddr_storage()
            withUnsafeMutableBytes(of: &storage) { target in
                target.copyMemory(from: UnsafeRawBufferPointer(start: entry.pointee.ai_addr, count: Int(entry.pointee.ai_addrlen)))
            }
            withUnsafeMutablePointer(to: &storage) { pointer in
                // The port sits at the same place in sockaddr_in and sockaddr_in6.
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port = port.bigEndian }
            }
            let address = SocketAddress(storage: storage)
            if !addresses.contains(where: { $0.description == address.description }) { addresses.append(address) }
        }
        guard !addresses.isEmpty else {
            throw SystemError(call: "getaddrinfo \(name): no IPv4 or IPv6 address", errno: EINVAL)
        }
        return addresses
    }

    func withSockAddr<Result>(
        _ body: (UnsafePointer<sockaddr>, socklen_t) throws(SystemError) -> Result
    ) throws(SystemError) -> Result {
        let length = family == sa_family_t(AF_INET6) ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size
        var copy = storage
        return try withUnsafePointer(to: &copy) { pointer throws(SystemError) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(SystemError) in
                try body(address, socklen_t(length))
            }
        }
    }
}

extension String {
    fileprivate var trimmingBrackets: String {
        hasPrefix("[") && hasSuffix("]") ? String(dropFirst().dropLast()) : self
    }
}
