import CSystem

/// Handing memory the allocator keeps after large parses back to the system.
enum FreedMemory {
    /// Returns free heap pages to the OS (glibc's malloc_trim), so a parse's peak does not
    /// stay as resident memory; a no-op where the allocator does this by itself.
    static func returnToSystem() {
        #if os(Linux)
            malloc_trim(0)
        #endif
    }
}
