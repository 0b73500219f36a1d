/// `pageSize` and `pageToken` of a list call, as Google's APIs take them.
public struct PageRequest: Sendable, Equatable {
    /// Items per page when `pageSize` is absent or 0.
    public static let defaultSize = 100
    /// The largest page; bigger sizes are lowered to it, as Google's APIs do.
    public static let maximumSize = 1000

    /// `pageSize`, if given.
    public var size: Int?
    /// `pageToken` from a previous page's `nextPageToken`, if given.
    public var token: String?

    /// Makes a request for one page.
    public init(size: Int? = nil, token: String? = nil) {
        self.size = size
        self.token = token
    }

    /// The page size this request asks for and the position its page token resumes from (nil:
    /// from the first item), or why they are refused.
    func checked() throws(PagingError) -> (limit: Int, resumePosition: Int?) {
        guard (size ?? 0) >= 0 else { throw .negativePageSize }
        let limit = min(size.flatMap { $0 == 0 ? nil : $0 } ?? Self.defaultSize, Self.maximumSize)
        guard let token, !token.isEmpty else { return (limit, nil) }
        guard let resume = Int(token) else { throw .invalidPageToken }
        return (limit, resume)
    }

    /// The page of `items` (already in display order) this request asks for.
    ///
    /// `position` gives each item a number that increases (or, with `descending`, decreases)
    /// along `items`; the page token is the position of the next page's first item, so pages
    /// stay correct when items are added or removed between calls.
    public func page<Item>(
        of items: [Item], descending: Bool = false, position: (Item) -> Int
    ) throws(PagingError) -> Page<Item> {
        let (limit, resume) = try checked()
        var start = items.startIndex
        if let resume {
            start =
                items.firstIndex(where: { descending ? position($0) <= resume : position($0) >= resume })
                ?? items.endIndex
        }
        let end = min(start + limit, items.endIndex)
        let next = end < items.endIndex ? String(position(items[end])) : nil
        return Page(items: Array(items[start..<end]), nextPageToken: next)
    }
}
