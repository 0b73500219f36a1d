/// One page of a list answer.
public struct Page<Item: Sendable>: Sendable {
    /// The items of this page.
    public var items: [Item]
    /// The token for the next page; nil on the last page.
    public var nextPageToken: String?

    /// Makes a page.
    public init(items: [Item], nextPageToken: String?) {
        self.items = items
        self.nextPageToken = nextPageToken
    }
}

extension Page: Equatable where Item: Equatable {}
