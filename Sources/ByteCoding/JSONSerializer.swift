/// Writes `JSONValue` as compact JSON text.
///
/// Members keep their order, numbers are written as their text (a `.number` built in code
/// must hold valid JSON number text), strings are escaped as RFC 8259 requires: `"`, `\` and
/// control characters; everything else, including non-ASCII, is written as UTF-8.
public enum JSONSerializer {
    /// The value as JSON bytes.
    public static func serialize(_ value: JSONValue) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(512)
        write(value, into: &output)
        return output
    }

    /// The value as JSON text.
    public static func serializeToString(_ value: JSONValue) -> String {
        String(decoding: serialize(value), as: UTF8.self)
    }

    /// `{"<key>":<text>}`, without a JSON tree: for answers written on every request, such as
    /// FCM's `{"name": ...}`. `key` must need no escaping.
    public static func object(key: StaticString, string text: String) -> [UInt8] {
        // Punctuation, and room for a few escapes.
        JSONBufferWriter.bytes(capacity: key.utf8CodeUnitCount + text.utf8.count + 16) { output in
            output.appendByte(0x7B)  // {
            output.appendByte(0x22)  // "
            append(key, to: &output)
            output.appendByte(0x22)
            output.appendByte(0x3A)  // :
            writeString(text, to: &output)
            output.appendByte(0x7D)  // }
        }
    }

    /// Appends the value's JSON to `output`.
    public static func write(_ value: JSONValue, into output: inout [UInt8]) {
        write(value, to: &output)
    }

    /// Appends the object's JSON to `output`.
    public static func write(_ object: JSONObject, into output: inout [UInt8]) {
        write(object, to: &output)
    }

    /// Appends the value's JSON to `output`.
    @inlinable
    public static func write<Output: JSONOutput>(_ value: JSONValue, to output: inout Output) {
        switch value {
        case .null: append("null", to: &output)
        case .bool(let flag): append(flag ? "true" : "false", to: &output)
        case .number(let text): appendUTF8(of: text, to: &output)
        case .string(let text): writeString(text, to: &output)
        case .array(let elements):
            output.appendByte(0x5B)  // [
            for (position, element) in elements.enumerated() {
                if position > 0 { output.appendByte(0x2C) }
                write(element, to: &output)
            }
            output.appendByte(0x5D)  // ]
        case .object(let object):
            write(object, to: &output)
        }
    }

    /// Appends the object's JSON to `output`.
    @inlinable
    public static func write<Output: JSONOutput>(_ object: JSONObject, to output: inout Output) {
        output.appendByte(0x7B)  // {
        for (position, member) in object.members.enumerated() {
            if position > 0 { output.appendByte(0x2C) }
            writeString(member.key, to: &output)
            output.appendByte(0x3A)  // :
            write(member.value, to: &output)
        }
        output.appendByte(0x7D)  // }
    }

    /// Appends `text`'s UTF-8 as it is.
    @inlinable
    static func appendUTF8<Output: JSONOutput>(of text: String, to output: inout Output) {
        if text.utf8.withContiguousStorageIfAvailable({ output.appendBytes($0) }) == nil {
            Array(text.utf8).withUnsafeBufferPointer { output.appendBytes($0) }
        }
    }

    /// Appends `text` as a quoted, escaped JSON string.
    @inlinable @inline(__always)
    public static func writeString<Output: JSONOutput>(_ text: String, to output: inout Output) {
        writeQuotedEscaped(text, to: &output)
    }

    /// Appends the bytes of `text` escaped where they need it, without quotes: for a string
    /// value written in parts.
    @inlinable
    public static func writeEscaped<Output: JSONOutput>(_ text: String, to output: inout Output) {
        if text.utf8.withContiguousStorageIfAvailable({ writeEscaped($0, to: &output) }) == nil {
            Array(text.utf8).withUnsafeBufferPointer { writeEscaped($0, to: &output) }
        }
    }

    /// Appends `text` quoted, its bytes escaped where they need it.
    @inlinable @inline(never)
    static func writeQuotedEscaped<Output: JSONOutput>(_ text: String, to output: inout Output) {
        output.appendByte(0x22)
        // Native strings, small ones included, lend their bytes; others are copied once.
        writeEscaped(text, to: &output)
        output.appendByte(0x22)
    }

    /// Appends `units` with `"`, `\` and control characters escaped, in runs between them.
    @inlinable
    static func writeEscaped<Output: JSONOutput>(_ units: UnsafeBufferPointer<UInt8>, to output: inout Output) {
        var runStart = 0
        var position = 0
        while position < units.count {
            let unit = units[position]
            position += 1
            guard unit < 0x20 || unit == 0x22 || unit == 0x5C else { continue }
            output.appendBytes(UnsafeBufferPointer(rebasing: units[runStart..<position - 1]))
            appendEscape(for: unit, to: &output)
            runStart = position
        }
        output.appendBytes(UnsafeBufferPointer(rebasing: units[runStart..<units.count]))
    }

    @inlinable
    static func appendEscape<Output: JSONOutput>(for unit: UInt8, to output: inout Output) {
        output.appendByte(0x5C)  // \
        switch unit {
        case 0x22: output.appendByte(0x22)
        case 0x5C: output.appendByte(0x5C)
        case 0x08: output.appendByte(0x62)  // b
        case 0x0C: output.appendByte(0x66)  // f
        case 0x0A: output.appendByte(0x6E)  // n
        case 0x0D: output.appendByte(0x72)  // r
        case 0x09: output.appendByte(0x74)  // t
        default:
            let hex: StaticString = "0123456789abcdef"
            output.appendByte(0x75)  // u00XX
            output.appendByte(0x30)
            output.appendByte(0x30)
            output.appendByte(hex.utf8Start[Int(unit >> 4)])
            output.appendByte(hex.utf8Start[Int(unit & 0xF)])
        }
    }

    /// Appends `literal`'s bytes as they are: for JSON text known in advance, such as a key
    /// that needs no escaping.
    @inlinable @inline(__always)
    public static func append<Output: JSONOutput>(_ literal: StaticString, to output: inout Output) {
        output.appendBytes(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }
}

extension JSONValue {
    /// The value as compact JSON bytes.
    public var jsonBytes: [UInt8] { JSONSerializer.serialize(self) }
    /// The value as compact JSON text.
    public var jsonString: String { JSONSerializer.serializeToString(self) }
}
