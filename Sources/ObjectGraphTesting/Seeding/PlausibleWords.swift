/// Word lists for plausible preview values (written for this project).
enum PlausibleWords {
    static let firstNames = [
        "Ada", "Alan", "Amara", "Ana", "Ben", "Chen", "Chloe", "Dara", "David", "Elena", "Emil",
        "Farah",
        "Felix", "Grace", "Hana", "Hugo", "Ines", "Ivan", "Jonas", "Julia", "Kai", "Keiko", "Leo",
        "Lina",
        "Luca", "Maya", "Mateo", "Nadia", "Noah", "Omar", "Priya", "Quinn", "Rosa", "Sami", "Sofia",
        "Theo", "Uma", "Victor", "Wen", "Yara", "Zoe",
    ]
    static let lastNames = [
        "Abe", "Alvarez", "Bauer", "Brown", "Costa", "Dubois", "Eriksen", "Fischer", "Garcia",
        "Haddad",
        "Ito", "Jensen", "Kim", "Kowalski", "Larsen", "Lopez", "Martin", "Meyer", "Nakamura",
        "Novak",
        "Okafor", "Olsen", "Patel", "Petrov", "Rossi", "Santos", "Schmidt", "Silva", "Tanaka",
        "Nguyen",
        "Virtanen", "Walker", "Weber", "Yilmaz", "Zhang",
    ]
    static let nouns = [
        "Atlas", "Harbor", "Maple", "Summit", "Lantern", "River", "Cedar", "Meadow", "Orbit",
        "Beacon",
        "Canyon", "Falcon", "Garden", "Horizon", "Island", "Juniper", "Kestrel", "Lagoon", "Mosaic",
        "Nimbus", "Oasis", "Pioneer", "Quarry", "Ridge", "Signal", "Timber", "Valley", "Willow",
        "Zephyr",
    ]
    static let adjectives = [
        "Quiet", "Bright", "Swift", "Golden", "Hidden", "Silver", "Northern", "Gentle", "Bold",
        "Crimson",
        "Little", "Ancient", "Modern", "Open", "Lucky", "Hollow", "Wild", "Second",
    ]
    static let categories = [
        "Groceries", "Rent", "Utilities", "Transport", "Dining", "Travel", "Health", "Insurance",
        "Education", "Gifts", "Entertainment", "Clothing", "Savings", "Subscriptions", "Pets",
        "Home",
        "Fitness", "Books", "Electronics", "Charity", "Coffee", "Taxes", "Hobbies", "Garden",
    ]
    static let words = [
        "notes", "about", "meeting", "plan", "review", "budget", "weekly", "update", "trip",
        "shared",
        "invoice", "draft", "final", "project", "call", "order", "list", "ideas", "morning", "team",
        "client", "summary", "next", "steps", "check", "receipt", "quick", "lunch", "market",
        "refund",
        "monthly", "renewal", "deposit", "repair", "visit", "train", "ticket", "dinner", "books",
        "paid",
    ]
    static let cities = [
        "Lisbon", "Osaka", "Nairobi", "Toronto", "Lyon", "Bergen", "Austin", "Porto", "Seoul",
        "Krakow",
        "Valencia", "Melbourne", "Quito", "Tallinn", "Dublin", "Accra", "Hanoi", "Montreal",
        "Zurich", "Cusco",
    ]
    static let countries = [
        "Portugal", "Japan", "Kenya", "Canada", "France", "Norway", "United States", "Spain",
        "South Korea",
        "Poland", "Australia", "Ecuador", "Estonia", "Ireland", "Ghana", "Vietnam", "Switzerland",
        "Peru",
    ]
    static let companySuffixes = [
        "Labs", "Works", "Co.", "Systems", "Partners", "Studio", "Foods", "Logistics",
    ]
    static let streetKinds = ["Street", "Avenue", "Road", "Lane", "Way"]
    static let currencies = ["EUR", "USD", "GBP", "JPY", "CHF", "CAD", "AUD", "SEK"]
    static let domains = ["example.com", "example.org", "example.net"]
}
