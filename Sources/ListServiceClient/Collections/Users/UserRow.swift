/// One person of the tap counter.
public struct UserRow: ListRow {
    public var id: String
    public var name: String
    /// "AL" for Ada Lovelace.
    public var initials: String
    public var taps: Int
    /// "1 tap", "3 taps", translated.
    public var tapsLabel: String
    public var version: String
    public var sectionKey: String?
}
