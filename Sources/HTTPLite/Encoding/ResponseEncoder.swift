import Basics

/// Writes response heads and bodies as HTTP/1.1 bytes into an output buffer. Every response
/// says `X-Content-Type-Options: nosniff`: a body is what its `Content-Type` says, never sniffed.
struct ResponseEncoder {
    private var dateCache = HTTPDateCache()
    private static let serverField: StaticString = "\r\nServer: HTTPLite\r\nX-Content-Type-Options: nosniff\r\nDate: "
    private static let continueResponse = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// How the body that follows a head is delimited.
    enum BodyFraming {
        case length(Int)
        case chunked
        /// Delimited by closing the connection (a stream to an HTTP/1.0 client).
        case untilClose
        /// A status that never has content (1xx, 204, 304).
        case none
    }

    static func appendContinue(to output: inout [UInt8]) {
        output.append(contentsOf: continueResponse)
    }

    /// Appends a whole fixed-body response; `includeBody` is false for HEAD.
    mutating func append(
        _ response: Response, body: [UInt8], includeBody: Bool, connection: ConnectionField, to output: inout [UInt8]
    ) {
        appendHead(for: response, bodyCount: body.count, connection: connection, to: &output)
        if includeBody && !response.status.forbidsBody { output.append(contentsOf: body) }
    }

    /// Appends the head of a fixed-body response whose body has `bodyCount` bytes.
    mutating func appendHead(for response: Response, bodyCount: Int, connection: ConnectionField, to output: inout [UInt8]) {
        let framing: BodyFraming = response.status.forbidsBody ? .none : .length(bodyCount)
        appendHead(status: response.status, headers: response.headers, framing: framing, connection: connection, to: &output)
    }

    /// What the `Connection` header says to the client.
    enum ConnectionField {
        case omitted
        case keepAlive
        case close
    }

    mutating func appendHead(
        status: HTTPStatus, headers: HTTPHeaders, framing: BodyFraming, connection: ConnectionField,
        to output: inout [UInt8]
    ) {
        let date = dateCache.current()
        // The fixed parts (status line, framing and connection fields, the end) take under 128 bytes.
        var capacity = 128 + status.reasonPhrase.utf8.count + Self.serverField.utf8CodeUnitCount + date.count
        for field in headers { capacity += 4 + field.name.utf8.count + field.value.utf8.count }
        // Written into scratch room (on the stack for a usual head) and appended to `output`
        // with one copy: no array is made and let go per answer.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { room in
            var writer = ByteWriter(room)
            writer.write("HTTP/1.1 ")
            writer.writeDecimal(status.code)
            writer.write(byte: UInt8(ascii: " "))
            writer.write(contentsOf: status.reasonPhrase)
            writer.write(Self.serverField)
            writer.write(date)
            for field in headers where !Self.isEncoderOwned(field.name) {
                withUTF8Bytes(of: field.name) { name in
                    withUTF8Bytes(of: field.value) { value in
                        guard Self.isValid(name: name, value: value) else { return }
                        writer.write("\r\n")
                        writer.write(name)
                        writer.write(": ")
                        writer.write(value)
                    }
                }
            }
            switch framing {
            case .length(let count):
                writer.write("\r\nContent-Length: ")
                writer.writeDecimal(count)
            case .chunked: writer.write("\r\nTransfer-Encoding: chunked")
            case .untilClose, .none: break
            }
            switch connection {
            case .omitted: break
            case .keepAlive: writer.write("\r\nConnection: keep-alive")
            case .close: writer.write("\r\nConnection: close")
            }
            writer.write("\r\n\r\n")
            output.append(contentsOf: UnsafeBufferPointer(rebasing: room[..<writer.count]))
        }
    }

    /// Appends one chunk of a chunked body; an empty chunk would end the body, so it is skipped.
    static func appendChunk(_ chunk: [UInt8], to output: inout [UInt8]) {
        guard !chunk.isEmpty else { return }
        appendChunkSize(chunk.count, to: &output)
        output.append(contentsOf: chunk)
        output.append(contentsOf: "\r\n".utf8)
    }

    /// `bytes` framed as one chunk (empty when `bytes` is): made once for an event many
    /// streams send.
    static func chunk(_ bytes: [UInt8]) -> [UInt8] {
        var framed: [UInt8] = []
        framed.reserveCapacity(bytes.count + 20)
        appendChunk(bytes, to: &framed)
        return framed
    }

    /// A chunk's size line: hexadecimal digits and CRLF.
    private static func appendChunkSize(_ size: Int, to output: inout [UInt8]) {
        let digits: StaticString = "0123456789abcdef"
        var shift = max(0, (Int.bitWidth - size.leadingZeroBitCount - 1) / 4 * 4)
        while shift >= 0 {
            output.append(digits.utf8Start[(size >> shift) & 15])
            shift -= 4
        }
        output.append(contentsOf: "\r\n".utf8)
    }

    static func appendLastChunk(to output: inout [UInt8]) {
        output.append(contentsOf: "0\r\n\r\n".utf8)
    }

    /// Framing and connection fields are the encoder's to write, never a handler's.
    private static func isEncoderOwned(_ name: String) -> Bool {
        switch name.utf8.count {  // every field of every answer passes here: lengths first
        case 14: HTTPHeaders.namesMatch(name, "Content-Length")
        case 17: HTTPHeaders.namesMatch(name, "Transfer-Encoding")
        case 10: HTTPHeaders.namesMatch(name, "Connection")
        default: false
        }
    }

    /// Refuses fields that would split the response (CR, LF or other controls).
    private static func isValid(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) -> Bool {
        HTTPSyntax.isToken(name) && HTTPSyntax.isFieldValue(value)
    }
}
