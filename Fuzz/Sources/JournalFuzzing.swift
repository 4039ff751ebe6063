#if FUZZING
    import Foundation
    @testable import ListService

    /// Journal recovery fed arbitrary file contents. Invariants: what it returns is exactly the
    /// file's first `validLength` bytes re-framed (so every record's checksum matched), and the
    /// dropped tail plus that length is the whole file, unless it refused to start.
    enum JournalFuzzing {
        private static let path = NSTemporaryDirectory() + "listservice-fuzz-\(getpid()).journal"

        static func run(_ input: [UInt8]) {
            // Half the inputs start with a valid record, so the fuzzer reaches the later paths.
            let contents = input.first.map { $0 & 1 == 0 } == true ? Journal.frame(Array("seed".utf8)) + input : input
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            guard fd >= 0 else { return }
            _ = contents.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
            defer { unlink(path) }
            guard let recovered = try? JournalReader.read(path) else { return }  // corruption before the end: refused
            let reframed = recovered.payloads.flatMap(Journal.frame)
            fuzzCheck(Array(contents.prefix(recovered.validLength)) == reframed, "a returned record is not what the file holds")
            fuzzCheck(recovered.validLength + recovered.droppedTail == contents.count, "bytes unaccounted for")
        }
    }
#endif
