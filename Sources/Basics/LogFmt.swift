/// Values for the service's `key=value` log lines (logfmt). A value that is one plain token
/// stays as it is; any other (empty, or holding a space, `"`, `=`, `\` or a control character:
/// a path with a space, an error's message) is quoted with JSON's escapes, so every line splits
/// into its pairs and no value can end a line or forge another.
public enum LogFmt {
    /// `text` as a log line's value.
    public static func value(_ text: String) -> String {
        let isPlain =
            !text.isEmpty
            && text.utf8.allSatisfy { byte in
                byte > 0x20 && byte != 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "=") && byte != UInt8(ascii: "\\")
            }
        return isPlain ? text : JSONString.quoted(text)
    }

    /// `error`'s description as a log line's value.
    public static func value(_ error: any Error) -> String { value(String(describing: error)) }
}
