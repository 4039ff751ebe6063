import Foundation
import HTTPLite
import ListService

/// `GET /auth/demo` lists the demo identities; `POST /auth/demo` with `{"sub", "role"}`
/// answers a token for one (`{"token", "expiresAt", "sub", "role"}`). Only when the server
/// offers demo identities; otherwise both are 404, and so are they for a request a proxy
/// passed on while they are on only by default (`DemoIdentities.refusal`).
enum AuthRoutes {
    static let demoPath = "/auth/demo"

    static func add(_ demo: DemoIdentities, service: CollectionService, to router: inout Router) {
        router.get(demoPath) { request in
            if let refusal = demo.refusal(of: request) { throw refusal }
            var json = JSONWriter()
            json.beginObject()
            json.key("identities")
            json.beginArray()
            for choice in demo.choices(in: service) {
                json.beginObject()
                json.field("sub", choice.identity.subject)
                json.field("role", choice.identity.role.rawValue)
                json.field("name", choice.name)
                json.endObject()
            }
            json.endArray()
            json.endObject()
            return .json(json.bytes)
        }
        router.post(demoPath, headCheck: JSONBody.headCheck(JSONBody.json)) { request in
            if let refusal = demo.refusal(of: request) { throw refusal }
            let body = try JSONBody.object(of: request)
            var validator = FieldValidator(body)
            validator.rejectUnknown(["sub", "role"])
            let subject = validator.text("sub", maxLength: 64)
            let roleName = validator.text("role", maxLength: 16, isRequired: false) ?? Identity.Role.customer.rawValue
            let roles = [Identity.Role.customer, .staff, .admin]
            let role = roles.first { $0.rawValue == roleName }
            if role == nil { validator.report("role", .oneOf(roles.map(\.rawValue))) }
            if let rejection = validator.result { throw rejection.httpError(localeTag: "en") }
            guard let subject, let role else { throw WriteRejection.invalid([]).httpError(localeTag: "en") }
            let identity = Identity(subject: subject, role: role)
            let (token, expiresAt) = demo.token(for: identity, now: Date())
            var json = JSONWriter()
            json.beginObject()
            json.field("token", token)
            json.field("expiresAt", ISO8601.format(expiresAt))
            json.field("sub", subject)
            json.field("role", role.rawValue)
            json.endObject()
            return .json(json.bytes)
        }
    }
}
