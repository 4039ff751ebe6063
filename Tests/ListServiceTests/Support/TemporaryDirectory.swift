import Foundation

/// Runs `body` with a new, empty directory under the system's temporary folder and removes it
/// afterwards, whatever happens: a test leaves nothing behind.
func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
    let path = NSTemporaryDirectory() + "listservice-test-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
}
