import Foundation

/// How a collection's items are kept: as records in the shared data format (journal records,
/// the database, item versions), in a binary snapshot, in its data file, and the embedded
/// data served without one.
package protocol CollectionRecord: CollectionQuery {
    /// Writes an item in the shared data format, for journal records and snapshots.
    static func writeItem(_ item: Item, to json: inout JSONWriter)
    /// Reads an item in the shared data format (as `writeItem` writes it).
    static func decodeItem(_ value: JSONValue, path: String) throws(JSONFieldError) -> Item
    /// A whole data file of `items`, as `decodeItems` reads it (a JSON array by default).
    static func encodeDataFile(_ items: [Item]) -> [UInt8]
    /// Writes an item into a binary snapshot (its JSON text by default; a large collection
    /// writes fields, with repeated text shared). A change here needs a new
    /// `SnapshotFile.formatVersion`.
    static func writeSnapshotItem(_ item: Item, to snapshot: inout SnapshotWriter)
    /// Reads items as `writeSnapshotItem` wrote them: the reader it makes is called once per
    /// item, in order, and may share storage between the items it reads.
    static func makeSnapshotItemReader() -> (inout SnapshotReader) throws(SnapshotFormatError) -> Item

    /// The embedded default data set.
    static func makeDefaultItems(anchor: Date) -> [Item]
    /// The data file's name in a `--data` directory.
    static var fileName: String { get }
    /// Whether a `--data` directory may lack the file; the embedded data is served then.
    static var isDataFileOptional: Bool { get }
    /// Decodes a data file.
    static func decodeItems(_ file: DataFileBytes) throws(DataLoadError) -> [Item]
}

extension CollectionRecord {
    package static var isDataFileOptional: Bool { false }

    package static func encodeDataFile(_ items: [Item]) -> [UInt8] {
        var json = JSONWriter(reservingCapacity: 256 * items.count)
        json.beginArray()
        for item in items { writeItem(item, to: &json) }
        json.endArray()
        return json.bytes
    }

    /// `item` as its data file's JSON record: what journals, snapshots, the database and
    /// item versions hold.
    package static func record(of item: Item) -> [UInt8] {
        var json = JSONWriter(reservingCapacity: 256)
        writeItem(item, to: &json)
        return json.bytes
    }

    /// An item from its JSON record (`record(of:)`); `path` names it in errors.
    package static func decodeRecord(_ record: [UInt8], path: String) throws(JSONFieldError) -> Item {
        let value: JSONValue
        do {
            value = try JSONParser.parse(record)
        } catch {
            throw JSONFieldError(path: path, reason: "\(error)")
        }
        return try decodeItem(value, path: path)
    }

    package static func writeSnapshotItem(_ item: Item, to snapshot: inout SnapshotWriter) { snapshot.data(record(of: item)) }

    package static func makeSnapshotItemReader() -> (inout SnapshotReader) throws(SnapshotFormatError) -> Item {
        { (snapshot: inout SnapshotReader) throws(SnapshotFormatError) in
            let text = try snapshot.data()
            do {
                return try decodeRecord(Array(text), path: "item")
            } catch {
                throw SnapshotFormatError(offset: 0, reason: "\(error)")
            }
        }
    }

    /// Decodes a JSON array data file with `decodeItem`.
    package static func decodeItems(_ file: DataFileBytes) throws(DataLoadError) -> [Item] {
        try JSONArrayDecoding.decode(file, id: id(of:)) {
            { (value, path) throws(JSONFieldError) in try decodeItem(value, path: path) }
        }
    }
}
