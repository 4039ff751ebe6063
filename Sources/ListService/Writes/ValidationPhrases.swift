/// The words of validation problems, per language: each `FieldIssue` and the summary ("1
/// field is invalid"), in English, German, French, Spanish and Japanese; English for others.
package struct ValidationPhrases: Sendable {
    let summary: @Sendable (Int) -> String
    let issue: @Sendable (FieldIssue) -> String

    /// The phrases for a BCP 47 locale tag.
    package static func forLocale(_ localeTag: String) -> ValidationPhrases { translations.phrases(for: localeTag) }

    static let translations = Translations(
        english: ValidationPhrases(
            summary: { $0 == 1 ? "1 field is invalid." : "\($0) fields are invalid." },
            issue: { issue in
                switch issue {
                case .required: "is required."
                case .notNull(let kind): "must be \(english(kind)), not null."
                case .wrongKind(let expected, let found): "must be \(english(expected)), not \(found)."
                case .empty: "must not be empty."
                case .tooLong(let max): "must be at most \(max) characters."
                case .controlCharacters: "must not contain control characters."
                case .unknownField: "is not a field that can be set here."
                case .oneOf(let values): "must be one of \(values.joined(separator: ", "))."
                case .wholeNumber(let range): "must be a whole number from \(range.lowerBound) to \(range.upperBound)."
                case .notNegative: "must not be negative."
                case .atMost(let limit): "must be at most \(limit)."
                case .atMostTwoDecimals: "must have at most two decimals."
                case .atLeastItems(let count): count == 1 ? "must hold at least one item." : "must hold at least \(count) items."
                case .atMostItems(let count): "must hold at most \(count) items."
                case .dateOrTimestamp: "must be a date (2026-11-20) or an ISO 8601 timestamp (2026-11-20T17:00:00Z)."
                case .itemIDOrNull: "must be an item id or null."
                case .text(let text): text
                }
            }),
        [
            "de": ValidationPhrases(
                summary: { $0 == 1 ? "1 Feld ist ungültig." : "\($0) Felder sind ungültig." },
                issue: { issue in
                    switch issue {
                    case .required: "ist erforderlich."
                    case .notNull(let kind): "muss \(german(kind)) sein, nicht null."
                    case .wrongKind(let expected, let found): "muss \(german(expected)) sein, nicht \(german(found))."
                    case .empty: "darf nicht leer sein."
                    case .tooLong(let max): "darf höchstens \(max) Zeichen lang sein."
                    case .controlCharacters: "darf keine Steuerzeichen enthalten."
                    case .unknownField: "ist kein Feld, das hier gesetzt werden kann."
                    case .oneOf(let values): "muss einer dieser Werte sein: \(values.joined(separator: ", "))."
                    case .wholeNumber(let range): "muss eine ganze Zahl von \(range.lowerBound) bis \(range.upperBound) sein."
                    case .notNegative: "darf nicht negativ sein."
                    case .atMost(let limit): "darf höchstens \(limit) sein."
                    case .atMostTwoDecimals: "darf höchstens zwei Nachkommastellen haben."
                    case .atLeastItems(let count):
                        count == 1 ? "muss mindestens einen Artikel enthalten." : "muss mindestens \(count) Artikel enthalten."
                    case .atMostItems(let count): "darf höchstens \(count) Artikel enthalten."
                    case .dateOrTimestamp: "muss ein Datum (2026-11-20) oder ein ISO-8601-Zeitpunkt (2026-11-20T17:00:00Z) sein."
                    case .itemIDOrNull: "muss eine Element-ID oder null sein."
                    case .text(let text): text
                    }
                }),
            "fr": ValidationPhrases(
                summary: { $0 == 1 ? "1 champ est invalide." : "\($0) champs sont invalides." },
                issue: { issue in
                    switch issue {
                    case .required: "est obligatoire."
                    case .notNull(let kind): "doit être \(french(kind)), pas null."
                    case .wrongKind(let expected, let found): "doit être \(french(expected)), pas \(french(found))."
                    case .empty: "ne doit pas être vide."
                    case .tooLong(let max): "doit comporter au plus \(max) caractères."
                    case .controlCharacters: "ne doit pas contenir de caractères de contrôle."
                    case .unknownField: "n’est pas un champ modifiable ici."
                    case .oneOf(let values): "doit être l’une de ces valeurs : \(values.joined(separator: ", "))."
                    case .wholeNumber(let range): "doit être un nombre entier de \(range.lowerBound) à \(range.upperBound)."
                    case .notNegative: "ne doit pas être négatif."
                    case .atMost(let limit): "doit être au plus \(limit)."
                    case .atMostTwoDecimals: "doit avoir au plus deux décimales."
                    case .atLeastItems(let count):
                        count == 1 ? "doit contenir au moins un article." : "doit contenir au moins \(count) articles."
                    case .atMostItems(let count): "doit contenir au plus \(count) articles."
                    case .dateOrTimestamp: "doit être une date (2026-11-20) ou un horodatage ISO 8601 (2026-11-20T17:00:00Z)."
                    case .itemIDOrNull: "doit être un identifiant d’élément ou null."
                    case .text(let text): text
                    }
                }),
            "es": ValidationPhrases(
                summary: { $0 == 1 ? "1 campo no es válido." : "\($0) campos no son válidos." },
                issue: { issue in
                    switch issue {
                    case .required: "es obligatorio."
                    case .notNull(let kind): "debe ser \(spanish(kind)), no null."
                    case .wrongKind(let expected, let found): "debe ser \(spanish(expected)), no \(spanish(found))."
                    case .empty: "no debe estar vacío."
                    case .tooLong(let max): "debe tener como máximo \(max) caracteres."
                    case .controlCharacters: "no debe contener caracteres de control."
                    case .unknownField: "no es un campo que se pueda establecer aquí."
                    case .oneOf(let values): "debe ser uno de estos valores: \(values.joined(separator: ", "))."
                    case .wholeNumber(let range): "debe ser un número entero de \(range.lowerBound) a \(range.upperBound)."
                    case .notNegative: "no debe ser negativo."
                    case .atMost(let limit): "debe ser como máximo \(limit)."
                    case .atMostTwoDecimals: "debe tener como máximo dos decimales."
                    case .atLeastItems(let count):
                        count == 1 ? "debe contener al menos un artículo." : "debe contener al menos \(count) artículos."
                    case .atMostItems(let count): "debe contener como máximo \(count) artículos."
                    case .dateOrTimestamp: "debe ser una fecha (2026-11-20) o una marca de tiempo ISO 8601 (2026-11-20T17:00:00Z)."
                    case .itemIDOrNull: "debe ser un identificador de elemento o null."
                    case .text(let text): text
                    }
                }),
            "ja": ValidationPhrases(
                summary: { "\($0)件の項目が無効です。" },
                issue: { issue in
                    switch issue {
                    case .required: "は必須です。"
                    case .notNull(let kind): "は\(japanese(kind))である必要があります（nullは不可）。"
                    case .wrongKind(let expected, let found): "は\(japanese(expected))である必要があります（\(japanese(found))は不可）。"
                    case .empty: "は空にできません。"
                    case .tooLong(let max): "は\(max)文字以内である必要があります。"
                    case .controlCharacters: "に制御文字を含めることはできません。"
                    case .unknownField: "はここで設定できる項目ではありません。"
                    case .oneOf(let values): "は次のいずれかである必要があります: \(values.joined(separator: ", "))。"
                    case .wholeNumber(let range): "は\(range.lowerBound)から\(range.upperBound)までの整数である必要があります。"
                    case .notNegative: "は負の値にできません。"
                    case .atMost(let limit): "は\(limit)以下である必要があります。"
                    case .atMostTwoDecimals: "の小数は2桁までです。"
                    case .atLeastItems(let count): "には\(count)件以上の商品が必要です。"
                    case .atMostItems(let count): "の商品は\(count)件までです。"
                    case .dateOrTimestamp: "は日付（2026-11-20）またはISO 8601の日時（2026-11-20T17:00:00Z）である必要があります。"
                    case .itemIDOrNull: "は項目IDまたはnullである必要があります。"
                    case .text(let text): text
                    }
                }),
        ])

    private static func english(_ kind: FieldIssue.ValueKind) -> String {
        switch kind {
        case .string: "a string"
        case .boolean: "true or false"
        case .number: "a number"
        case .object: "an object"
        case .array: "an array"
        }
    }

    private static func german(_ kind: FieldIssue.ValueKind) -> String {
        switch kind {
        case .string: "ein Text"
        case .boolean: "true oder false"
        case .number: "eine Zahl"
        case .object: "ein Objekt"
        case .array: "ein Array"
        }
    }

    private static func german(_ kind: JSONKind) -> String {
        switch kind {
        case .null: "null"
        case .boolean: "ein Wahrheitswert"
        case .number: "eine Zahl"
        case .string: "ein Text"
        case .array: "ein Array"
        case .object: "ein Objekt"
        }
    }

    private static func french(_ kind: FieldIssue.ValueKind) -> String {
        switch kind {
        case .string: "une chaîne"
        case .boolean: "true ou false"
        case .number: "un nombre"
        case .object: "un objet"
        case .array: "un tableau"
        }
    }

    private static func french(_ kind: JSONKind) -> String {
        switch kind {
        case .null: "null"
        case .boolean: "un booléen"
        case .number: "un nombre"
        case .string: "une chaîne"
        case .array: "un tableau"
        case .object: "un objet"
        }
    }

    private static func spanish(_ kind: FieldIssue.ValueKind) -> String {
        switch kind {
        case .string: "una cadena"
        case .boolean: "true o false"
        case .number: "un número"
        case .object: "un objeto"
        case .array: "un array"
        }
    }

    private static func spanish(_ kind: JSONKind) -> String {
        switch kind {
        case .null: "null"
        case .boolean: "un booleano"
        case .number: "un número"
        case .string: "una cadena"
        case .array: "un array"
        case .object: "un objeto"
        }
    }

    private static func japanese(_ kind: FieldIssue.ValueKind) -> String {
        switch kind {
        case .string: "文字列"
        case .boolean: "trueまたはfalse"
        case .number: "数値"
        case .object: "オブジェクト"
        case .array: "配列"
        }
    }

    private static func japanese(_ kind: JSONKind) -> String {
        switch kind {
        case .null: "null"
        case .boolean: "真偽値"
        case .number: "数値"
        case .string: "文字列"
        case .array: "配列"
        case .object: "オブジェクト"
        }
    }
}
