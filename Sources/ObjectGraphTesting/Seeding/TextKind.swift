/// What a string attribute probably holds, guessed from its key and entity names, so
/// generated values look plausible.
enum TextKind {
    case email, url, firstName, lastName, fullName, username, phone, city, country, street
    case company, colorHex, currency, sentence, title, tag, code, category, placeName, words

    /// The kind for `key` of `entity` (names compared case-insensitively).
    static func guess(key: String, entity: String) -> TextKind {
        let k = key.lowercased()
        let e = entity.lowercased()
        func has(_ parts: String...) -> Bool { parts.contains { k.contains($0) } }
        if has("email") { return .email }
        if has("url", "website", "homepage", "link") || k == "uri" { return .url }
        if has("firstname", "givenname") { return .firstName }
        if has("lastname", "surname", "familyname") { return .lastName }
        if has("username", "login", "handle", "nickname") { return .username }
        if has("phone", "mobile") { return .phone }
        if has("city", "town") { return .city }
        if has("country") { return .country }
        if has("street", "address") { return .street }
        if has("company", "organization", "organisation", "employer", "publisher") {
            return .company
        }
        if has("color", "colour") { return .colorHex }
        if has("currency") { return .currency }
        if has(
            "note", "description", "comment", "summary", "body", "text", "memo", "detail", "bio",
            "content", "message")
        {
            return .sentence
        }
        if has("title", "subject", "headline") { return .title }
        if has("tag", "label", "keyword", "slug") { return .tag }
        if has("code", "sku", "reference") { return .code }
        if has("name") {
            func entityIs(_ parts: String...) -> Bool { parts.contains { e.contains($0) } }
            if entityIs(
                "person", "user", "employee", "customer", "author", "member", "contact", "student",
                "teacher", "owner", "artist", "client", "patient", "player", "friend", "people")
            {
                return .fullName
            }
            if entityIs("categor") { return .category }
            if entityIs("tag", "label") { return .tag }
            if entityIs(
                "compan", "organi", "vendor", "merchant", "store", "shop", "brand", "publisher")
            {
                return .company
            }
            if entityIs("city") { return .city }
            if entityIs("country") { return .country }
            return .placeName
        }
        return .words
    }
}
