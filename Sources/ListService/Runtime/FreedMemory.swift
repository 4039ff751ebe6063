import CSystem

/// Handing memory the allocator keeps back to the system.
package enum FreedMemory {
    /// Blocks this large or larger (a 500-row page, its compressed body, a parsed import) get
    /// pages of their own from the system and go back to it when freed.
    static let ownPagesFromBytes: Int32 = 128 * 1024

    /// Fixes glibc's threshold for giving large blocks pages of their own. Left to itself,
    /// glibc raises it to the size of each such block freed, so after the first page was let
    /// go every later one came from the heap, where pages freed by expired sessions were
    /// scattered among live ones and could not be returned: a second crowd of sessions grew
    /// memory again. Call once at start-up; a no-op where the allocator is not glibc.
    package static func keepLargeBlocksApart() {
        #if os(Linux)
            _ = mallopt(M_MMAP_THRESHOLD, ownPagesFromBytes)
        #endif
    }

    /// Returns free heap pages to the OS (glibc's malloc_trim), so a parse's peak does not
    /// stay as resident memory; a no-op where the allocator does this by itself.
    static func returnToSystem() {
        #if os(Linux)
            malloc_trim(0)
        #endif
    }
}
