import Basics

/// Encodes an `HTTPError` as an RFC 9457 problem details object.
enum ProblemJSON {
    static func encode(_ error: HTTPError) -> [UInt8] {
        var json = Array("{\"type\":\"about:blank\",\"title\":".utf8)
        JSONString.append(error.status.reasonPhrase, to: &json)
        json += Array(",\"status\":\(error.status.code),\"detail\":".utf8)
        JSONString.append(error.detail, to: &json)
        json += Array(",\"code\":".utf8)
        JSONString.append(error.code, to: &json)
        for member in error.extensions {
            json.append(UInt8(ascii: ","))
            JSONString.append(member.name, to: &json)
            json.append(UInt8(ascii: ":"))
            json += Array(member.json.utf8)
        }
        json.append(UInt8(ascii: "}"))
        return json
    }
}
