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
    /// Longest chunk-size line we accept, extensions included.
    private static let maxSizeLineLength = 1024

    init(limits: HTTPLimits) { self.limits = limits }

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
                    guard body.count + size <= limits.maxBodyBytes else { return .failed(.bodyTooLarge) }
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

    /// Parses `1*HEXDIG [ chunk-ext ]`, ignoring extensions.
    private static func chunkSize(_ line: [UInt8]) -> Int? {
        var size = 0, digits = 0
        for byte in line {
            if let value = PercentDecoding.hexValue(byte) {
                guard digits < 15 else { return nil }
                size = size << 4 | Int(value)
                digits += 1
            } else if byte == UInt8(ascii: ";") || HTTPSyntax.isOWS(byte) {
                break
            } else {
                return nil
            }
        }
        return digits > 0 ? size : nil
    }
}
