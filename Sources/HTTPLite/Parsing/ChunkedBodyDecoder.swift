/// Decodes a chunked request body (RFC 9112 §7.1) as bytes arrive, in any fragments.
struct ChunkedBodyDecoder {
    /// Where the decoder is within the chunked stream.
    private enum State {
        case readingSizeLine
        case readingData(remaining: Int)
        case readingDataEnd
        case readingTrailers(bytesSeen: Int)
    }

    enum Progress {
        case needMoreData
        case finished([UInt8])
        case failed(HTTPError)
    }

    private var state = State.readingSizeLine
    private var body: [UInt8] = []
    private let limits: HTTPLimits
    /// The largest decoded body accepted (413 past it).
    private let maxBodyBytes: Int
    /// Longest chunk-size line we accept, extensions included.
    private static let maxSizeLineLength = 1024

    init(maxBodyBytes: Int, limits: HTTPLimits) {
        self.maxBodyBytes = maxBodyBytes
        self.limits = limits
    }

    mutating func decode(_ buffer: inout InboundBuffer) -> Progress {
        while true {
            switch state {
            case .readingSizeLine:
                guard let line = takeLine(&buffer, limit: Self.maxSizeLineLength) else { return .needMoreData }
                switch line {
                case .failure(let error): return .failed(error)
                case .success(let bytes):
                    guard let size = Self.chunkSize(bytes) else {
                        return .failed(.malformed("A chunk size is not a hexadecimal number."))
                    }
                    guard body.count + size <= maxBodyBytes else { return .failed(.bodyTooLarge) }
                    state = size == 0 ? .readingTrailers(bytesSeen: 0) : .readingData(remaining: size)
                }
            case .readingData(let remaining):
                let count = min(remaining, buffer.readableCount)
                guard count > 0 else { return .needMoreData }
                buffer.withReadableBytes { body.append(contentsOf: $0.prefix(count)) }
                buffer.consume(count)
                state = remaining == count ? .readingDataEnd : .readingData(remaining: remaining - count)
            case .readingDataEnd:
                guard buffer.readableCount >= 2 else { return .needMoreData }
                let isCRLF = buffer.withReadableBytes { $0[0] == HTTPSyntax.cr && $0[1] == HTTPSyntax.lf }
                guard isCRLF else { return .failed(.malformed("Chunk data is not followed by CRLF.")) }
                buffer.consume(2)
                state = .readingSizeLine
            case .readingTrailers(let bytesSeen):
                // Trailer fields are read and discarded; an empty line ends the message.
                let remainingAllowance = limits.maxHeaderBytes - bytesSeen
                guard let line = takeLine(&buffer, limit: remainingAllowance) else { return .needMoreData }
                switch line {
                case .failure(let error):
                    return .failed(error.status == .badRequest ? error : .headersTooLarge)
                case .success(let bytes) where bytes.isEmpty:
                    return .finished(body)
                case .success(let bytes):
                    state = .readingTrailers(bytesSeen: bytesSeen + bytes.count + 2)
                }
            }
        }
    }

    /// Takes one CRLF-terminated line, or nil when it has not fully arrived.
    private func takeLine(_ buffer: inout InboundBuffer, limit: Int) -> Result<[UInt8], HTTPError>? {
        let found: Result<Int, HTTPError>? = buffer.withReadableBytes { bytes in
            guard let lf = bytes.prefix(limit + 2).firstIndex(of: HTTPSyntax.lf) else {
                return bytes.count >= limit + 2 ? .failure(.malformed("A chunk line is too long.")) : nil
            }
            guard lf > 0, bytes[lf - 1] == HTTPSyntax.cr else {
                return .failure(.malformed("A chunk line does not end in CRLF."))
            }
            return .success(lf)
        }
        switch found {
        case nil: return nil
        case .failure(let error)?: return .failure(error)
        case .success(let lf)?:
            let line = buffer.withReadableBytes { Array($0.prefix(lf - 1)) }
            buffer.consume(lf + 1)
            return .success(line)
        }
    }

    /// Parses `1*HEXDIG [ chunk-ext ]` (RFC 9112 §7.1.1), ignoring extensions: after the
    /// digits only whitespace and then `;` may follow, so `2 zz` is refused, not read as 2.
    private static func chunkSize(_ line: [UInt8]) -> Int? {
        var size = 0, digits = 0, index = 0
        while index < line.count, let value = PercentDecoding.hexValue(line[index]) {
            guard digits < 15 else { return nil }
            size = size << 4 | Int(value)
            digits += 1
            index += 1
        }
        guard digits > 0 else { return nil }
        while index < line.count, HTTPSyntax.isOWS(line[index]) { index += 1 }
        guard index == line.count || line[index] == UInt8(ascii: ";") else { return nil }
        return line[index...].allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) } ? size : nil
    }
}
