#if canImport(Glibc)
import Glibc
#endif

extension HTTP1Parser {
    /// Byte classes and scans of RFC 9110/9112 grammar, on raw bytes so the hot path builds no strings.
    enum ASCII {
        static let lf: UInt8 = 0x0A
        static let cr: UInt8 = 0x0D
        static let space: UInt8 = 0x20
        static let tab: UInt8 = 0x09
        static let colon: UInt8 = 0x3A
        static let semicolon: UInt8 = 0x3B
        static let comma: UInt8 = 0x2C

        // tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~"
        //         / DIGIT / ALPHA, as one bit per byte value: a shift instead of a table lookup.
        private static let tokenBitsLow: UInt64 = 0x03FF_6CFA_0000_0000
        private static let tokenBitsHigh: UInt64 = 0x57FF_FFFF_C7FF_FFFE

        @inline(__always)
        static func isToken(_ byte: UInt8) -> Bool {
            if byte < 64 { return (tokenBitsLow >> UInt64(byte)) & 1 != 0 }
            if byte < 128 { return (tokenBitsHigh >> UInt64(byte &- 64)) & 1 != 0 }
            return false
        }

        /// Visible ASCII: a request-target has no spaces, controls or raw non-ASCII bytes.
        @inline(__always)
        static func isTarget(_ byte: UInt8) -> Bool {
            byte > 0x20 && byte < 0x7F
        }

        @inline(__always)
        static func isWhitespace(_ byte: UInt8) -> Bool {
            byte == space || byte == tab
        }

        @inline(__always)
        static func isDigit(_ byte: UInt8) -> Bool {
            byte &- 0x30 < 10
        }

        /// The value of a hex digit, or nil.
        @inline(__always)
        static func hexValue(_ byte: UInt8) -> Int? {
            switch byte {
            case 0x30...0x39: Int(byte &- 0x30)
            case 0x41...0x46: Int(byte &- 0x41 &+ 10)
            case 0x61...0x66: Int(byte &- 0x61 &+ 10)
            default: nil
            }
        }

        @inline(__always)
        static func lowercased(_ byte: UInt8) -> UInt8 {
            byte &- 0x41 < 26 ? byte | 0x20 : byte
        }

        /// Whether `bytes` equals `lowercaseLiteral` ignoring ASCII case.
        static func equalsIgnoringCase(_ bytes: UnsafeRawBufferPointer, _ lowercaseLiteral: StaticString) -> Bool {
            let count = lowercaseLiteral.utf8CodeUnitCount
            guard bytes.count == count else { return false }
            let literal = lowercaseLiteral.utf8Start
            for index in 0..<count where lowercased(bytes[index]) != literal[index] {
                return false
            }
            return true
        }

        /// The index of the first LF in `buffer` at or after `start` (C's `memchr`).
        static func firstLF(in buffer: UnsafeRawBufferPointer, from start: Int) -> Int? {
            guard start < buffer.count, let base = buffer.baseAddress else { return nil }
            guard let found = memchr(base + start, Int32(lf), buffer.count - start) else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }

        /// `bytes` without leading and trailing SP/HTAB.
        static func trimmingWhitespace(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
            var start = 0
            var end = bytes.count
            while start < end, isWhitespace(bytes[start]) { start += 1 }
            while end > start, isWhitespace(bytes[end - 1]) { end -= 1 }
            return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
        }

        /// Calls `body` with each non-empty element of a comma-separated list, trimmed of whitespace
        /// (RFC 9110 §5.6.1: empty elements are ignored).
        static func forEachListElement(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
            var start = 0
            while start <= bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != comma { end += 1 }
                let element = trimmingWhitespace(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                if !element.isEmpty { body(element) }
                start = end + 1
            }
        }
    }
}
