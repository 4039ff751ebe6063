/// Encodes an `HTTPError` as an RFC 9457 problem details object.
enum ProblemJSON {
    static func encode(_ error: HTTPError) -> [UInt8] {
        var json = "{\"type\":\"about:blank\",\"title\":"
        appendString(error.status.reasonPhrase, to: &json)
        json += ",\"status\":\(error.status.code),\"detail\":"
        appendString(error.detail, to: &json)
        json += ",\"code\":"
        appendString(error.code, to: &json)
        for member in error.extensions {
            json += ","
            appendString(member.name, to: &json)
            json += ":" + member.json
        }
        json += "}"
        return Array(json.utf8)
    }

    /// Appends `text` as a JSON string literal (RFC 8259 §7).
    static func appendString(_ text: String, to json: inout String) {
        json += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": json += "\\\""
            case "\\": json += "\\\\"
            case "\n": json += "\\n"
            case "\r": json += "\\r"
            case "\t": json += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                json += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: json.unicodeScalars.append(scalar)
            }
        }
        json += "\""
    }
}
