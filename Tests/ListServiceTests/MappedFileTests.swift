import Foundation
import Testing

@testable import ListService

/// A mapped data file reads as the file, before and after its pages are handed back.
@Suite struct MappedFileTests {
    @Test func releasedPages_readTheSameBytes() throws {
        let path = NSTemporaryDirectory() + "mapped-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let content = (0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        try Data(content).write(to: URL(fileURLWithPath: path))
        let file = try MappedFile(path: path)
        #expect(Array(file.bytes) == content)
        file.release(100..<45_000)
        file.release(0..<file.bytes.count)
        #expect(Array(file.bytes) == content)
    }

    @Test func emptyFile_mapsToNoBytes() throws {
        let path = NSTemporaryDirectory() + "mapped-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data().write(to: URL(fileURLWithPath: path))
        let file = try MappedFile(path: path)
        #expect(file.bytes.isEmpty)
        file.release(0..<0)
    }

    @Test func missingFile_saysWhy() {
        #expect(throws: MappingError.self) { try MappedFile(path: "/nonexistent/orders.json") }
        do {
            _ = try MappedFile(path: "/nonexistent/orders.json")
        } catch {
            #expect(error.description == "No such file or directory")
        }
    }
}
