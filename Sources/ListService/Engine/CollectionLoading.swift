import Foundation

/// Loading a collection's data file into a `CollectionState`.
package enum CollectionLoading {
    /// Reads the collection's file from `directory`; the error names the file and the field.
    static func loadItems<C: ListCollection>(_ collection: C.Type, from directory: URL) throws(DataLoadError) -> [C.Item] {
        let file = directory.appendingPathComponent(C.fileName)
        let data: Data
        do {
            data = try Data(contentsOf: file, options: .alwaysMapped)
        } catch {
            throw DataLoadError(file: C.fileName, reason: "cannot be read (\(error.localizedDescription))")
        }
        let decoded = data.withUnsafeBytes { bytes in
            Result { () throws(DataLoadError) in try C.decodeItems(bytes, file: C.fileName) }
        }
        return try decoded.get()
    }
}

/// A data file that cannot be served, said in one line: `orders.json: [17].total: is missing`.
package struct DataLoadError: Error, CustomStringConvertible, Sendable {
    package let file: String
    package let reason: String

    package init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    package var description: String { "\(file): \(reason)" }
}

/// Decodes the elements of a top-level JSON array one at a time, with errors that name the
/// file, the element and the field, and unique ids.
package enum JSONArrayDecoding {
    package static func decode<Item>(
        _ bytes: UnsafeRawBufferPointer, file: String, id: (Item) -> String,
        element: (JSONValue, String) throws(JSONFieldError) -> Item
    ) throws(DataLoadError) -> [Item] {
        var items: [Item] = []
        var ids = UniqueIDs()
        do {
            try JSONParser.forEachElement(ofArrayIn: bytes) { value in
                let path = "[\(items.count)]"
                let item = try element(value, path)
                try ids.claim(id(item), at: path, item: "item")
                items.append(item)
            }
        } catch let error as JSONParser.Failure {
            throw DataLoadError(file: file, reason: error.description)
        } catch let error as JSONFieldError {
            throw DataLoadError(file: file, reason: error.description)
        } catch {
            throw DataLoadError(file: file, reason: "\(error)")
        }
        return items
    }
}
