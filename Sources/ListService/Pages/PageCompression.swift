/// A compressed coding of page bodies (gzip, supplied by the front door) that a client takes.
/// The engine and the view-models make it as they keep a page, so the caches count the
/// compressed body in the page's cost and bound both codings together.
package struct PageCompression: Sendable {
    /// Smaller bodies are not compressed.
    package let minimumBytes: Int
    /// The compressed body of a page and its strong ETag.
    package let compress: @Sendable ([UInt8], _ etag: String) -> EncodedBody

    package init(minimumBytes: Int, compress: @escaping @Sendable ([UInt8], _ etag: String) -> EncodedBody) {
        self.minimumBytes = minimumBytes
        self.compress = compress
    }
}
