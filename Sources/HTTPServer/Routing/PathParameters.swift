/// The parameters a route template matched in a path (`{project}` → `demo`), percent-decoded.
///
/// A list rather than a dictionary: a template has one to three, and every routed request
/// makes one, so hashing their names would cost more than comparing them. The first is held
/// inline, so that the usual template with one parameter costs no array allocation.
public struct PathParameters: Sendable, ExpressibleByDictionaryLiteral {
    /// How many there are; `first` holds one only when there is at least one. Not an optional
    /// pair: the router assigns parameters to every routed request, and destroying the optional
    /// it replaced went through a generic outlined destroy.
    private var count = 0
    private var first = (name: "", value: "")
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
            if count > 0, first.name == name { return first.value }
            return rest.first(where: { $0.name == name })?.value
        }
        set {
            var pairs = (count > 0 ? [first] : []) + rest
            pairs.removeAll { $0.name == name }
            if let newValue { pairs.append((name, newValue)) }
            count = pairs.count
            first = pairs.first ?? (name: "", value: "")
            rest = Array(pairs.dropFirst())
        }
    }

    /// Adds a parameter the template names once.
    mutating func append(name: String, value: String) {
        if count == 0 {
            first = (name, value)
        } else {
            rest.append((name, value))
        }
        count += 1
    }
}
