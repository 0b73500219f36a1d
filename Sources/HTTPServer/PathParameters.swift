/// The parameters a route template matched in a path (`{project}` → `demo`), percent-decoded.
///
/// A list rather than a dictionary: a template has one to three, and every routed request
/// makes one, so hashing their names would cost more than comparing them. The first is held
/// inline, so that the usual template with one parameter costs no array allocation.
public struct PathParameters: Sendable, ExpressibleByDictionaryLiteral {
    private var first: (name: String, value: String)?
    private var rest: [(name: String, value: String)] = []

    /// No parameters.
    public init() {}

    /// `["project": "demo"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { self[name] = value }
    }

    /// The value of the parameter `name`, if the template has it.
    public subscript(name: String) -> String? {
        get {
            if let first, first.name == name { return first.value }
            return rest.first(where: { $0.name == name })?.value
        }
        set {
            var pairs = (first.map { [$0] } ?? []) + rest
            pairs.removeAll { $0.name == name }
            if let newValue { pairs.append((name, newValue)) }
            first = pairs.first
            rest = Array(pairs.dropFirst())
        }
    }

    /// Adds a parameter the template names once.
    mutating func append(name: String, value: String) {
        if first == nil && rest.isEmpty {
            first = (name, value)
        } else {
            rest.append((name, value))
        }
    }
}
