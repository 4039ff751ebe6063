import Foundation

/// Just enough of `openapi.yaml` to hold a collection's declarations against it: an
/// operation's parameters (name, location, the values an `enum` allows, `$ref`s followed) and
/// a schema's properties. Read line by line by indentation, which is how the file is written
/// (block mappings and sequences, flow sequences for enums); not a YAML parser.
struct OpenAPIOutline {
    struct Parameter: Equatable {
        var name = ""
        var location = ""
        var allowed: [String]?
    }

    private let lines: [String]

    init(contentsOf url: URL) throws {
        lines = String(decoding: try Data(contentsOf: url), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
    }

    /// The repository's `openapi.yaml`.
    static func repositoryDocument(_ filePath: String = #filePath) throws -> OpenAPIOutline {
        var url = URL(fileURLWithPath: filePath)
        while url.lastPathComponent != "Tests" { url.deleteLastPathComponent() }
        return try OpenAPIOutline(contentsOf: url.deletingLastPathComponent().appendingPathComponent("openapi.yaml"))
    }

    /// The parameters of `method` on `path`, `$ref`s followed; nil when the operation is missing.
    func parameters(of method: String, _ path: String) -> [Parameter]? {
        guard let pathLine = line(equal: "  \(path):", from: 0), let operation = child("\(method):", of: pathLine),
            let list = child("parameters:", of: operation)
        else { return nil }
        return items(of: list).map { item in
            if let reference = value(of: "- $ref", in: [item.first ?? ""]), let name = reference.split(separator: "/").last {
                return component(String(name))
            }
            return parameter(in: item)
        }
    }

    /// The properties a schema under `components/schemas` declares, and those it requires.
    func schema(_ name: String) -> (properties: [String], required: [String])? {
        guard let components = line(equal: "components:", from: 0), let schemas = line(equal: "  schemas:", from: components),
            let schema = line(equal: "    \(name):", from: schemas)
        else { return nil }
        let required = block(of: schema).lazy.compactMap { self.value(of: "required", in: [$0]) }.first.map(Self.flowList) ?? []
        guard let properties = child("properties:", of: schema) else { return ([], required) }
        let indent = indentation(of: lines[properties]) + 2
        let names = block(of: properties).filter { indentation(of: $0) == indent && $0.hasSuffix(":") }
            .map { $0.trimmingCharacters(in: .whitespaces).dropLast() }.map(String.init)
        return (names, required)
    }

    /// The schema a `$ref` under `method` on `path`'s 200 answer names, then, inside that one,
    /// the first `$ref` to a schema whose name ends in `suffix` (a list's row schema).
    func schemaReferenced(by method: String, _ path: String, inside suffix: String) -> String? {
        guard let pathLine = line(equal: "  \(path):", from: 0), let operation = child("\(method):", of: pathLine),
            let ok = block(of: operation).firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "\"200\":" })
        else { return nil }
        let answer = block(of: operation)[ok...]
        guard let page = answer.lazy.compactMap({ Self.schemaName(in: $0) }).first,
            let components = line(equal: "  schemas:", from: 0), let pageLine = line(equal: "    \(page):", from: components)
        else { return nil }
        return block(of: pageLine).lazy.compactMap { Self.schemaName(in: $0) }.first { $0.hasSuffix(suffix) }
    }

    // MARK: lines

    private func line(equal text: String, from start: Int) -> Int? {
        lines.indices.dropFirst(start).first { lines[$0] == text }
    }

    private func indentation(of line: String) -> Int { line.prefix { $0 == " " }.count }

    /// The lines indented under line `index`.
    private func block(of index: Int) -> [String] {
        let indent = indentation(of: lines[index])
        var result: [String] = []
        for line in lines.dropFirst(index + 1) {
            if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            if indentation(of: line) <= indent { break }
            result.append(line)
        }
        return result
    }

    /// The line right under `index` (one level deeper) that reads `key`.
    private func child(_ key: String, of index: Int) -> Int? {
        let indent = indentation(of: lines[index])
        var position = index + 1
        while position < lines.count {
            let line = lines[position]
            if !line.trimmingCharacters(in: .whitespaces).isEmpty {
                if indentation(of: line) <= indent { return nil }
                if line.trimmingCharacters(in: .whitespaces) == key { return position }
            }
            position += 1
        }
        return nil
    }

    /// A sequence's items under line `index`, each its lines.
    private func items(of index: Int) -> [[String]] {
        let lines = block(of: index)
        let indent = lines.first.map(indentation) ?? 0
        var items: [[String]] = []
        for line in lines {
            if indentation(of: line) == indent && line.trimmingCharacters(in: .whitespaces).hasPrefix("- ") {
                items.append([line])
            } else if !items.isEmpty {
                items[items.count - 1].append(line)
            }
        }
        return items
    }

    private func component(_ name: String) -> Parameter {
        guard let components = line(equal: "components:", from: 0), let parameters = line(equal: "  parameters:", from: components),
            let start = line(equal: "    \(name):", from: parameters)
        else { return Parameter(name: "unresolved \(name)") }
        return parameter(in: block(of: start))
    }

    private func parameter(in lines: [String]) -> Parameter {
        var parameter = Parameter()
        var isInEnum = false, enumIndent = 0
        for line in lines {
            let text = line.trimmingCharacters(in: .whitespaces)
            let stripped = text.hasPrefix("- ") ? String(text.dropFirst(2)) : text
            if isInEnum, indentation(of: line) > enumIndent, text.hasPrefix("- ") {
                parameter.allowed?.append(Self.unquoted(String(text.dropFirst(2))))
                continue
            }
            isInEnum = false
            if parameter.name.isEmpty, let name = value(of: "name", in: [stripped]) { parameter.name = name }
            if parameter.location.isEmpty, let location = value(of: "in", in: [stripped]) { parameter.location = location }
            if parameter.allowed == nil, stripped.hasPrefix("enum:") {
                let rest = stripped.dropFirst("enum:".count).trimmingCharacters(in: .whitespaces)
                parameter.allowed = rest.isEmpty ? [] : Self.flowList(rest)
                (isInEnum, enumIndent) = (rest.isEmpty, indentation(of: line))
            }
        }
        return parameter
    }

    private func value(of key: String, in lines: [String]) -> String? {
        for line in lines {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix(key + ": ") { return Self.unquoted(String(text.dropFirst(key.count + 2))) }
        }
        return nil
    }

    private static func unquoted(_ text: String) -> String { text.trimmingCharacters(in: CharacterSet(charactersIn: "\"' ")) }

    /// `[a, b, "c"]` → `["a", "b", "c"]`.
    private static func flowList(_ text: String) -> [String] {
        text.trimmingCharacters(in: CharacterSet(charactersIn: "[] ")).split(separator: ",").map { unquoted(String($0)) }
    }

    private static func schemaName(in line: String) -> String? {
        guard let range = line.range(of: "#/components/schemas/") else { return nil }
        return String(line[range.upperBound...].prefix { $0.isLetter || $0.isNumber })
    }
}
