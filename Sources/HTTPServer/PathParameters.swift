/// The parameters a route template matched in a path (`{project}` → `demo`), percent-decoded.
///
/// A list rather than a dictionary: a template has one to three, and every routed request
/// makes one, so hashing their names would cost more than comparing them.
public struct PathParameters: Sendable, ExpressibleByDictionaryLiteral {
    private var pairs: [(name: String, value: String)] = []

    /// No parameters.
    public init() {}

    /// `["project": "demo"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { self[name] = value }
    }

    /// The value of the parameter `name`, if the template has it.
    public subscript(name: String) -> String? {
        get { pairs.first(where: { $0.name == name })?.value }
        set {
            pairs.removeAll { $0.name == name }
            if let newValue { pairs.append((name, newValue)) }
        }
    }

    /// Adds a parameter the template names once.
    mutating func append(name: String, value: String) {
        pairs.append((name, value))
    }
}
