import Foundation

/// A shipping address as the lines of a label: in the destination country's order, with the
/// country's name in the client's language.
enum AddressFormat {
    /// Countries that write the postal code after the city on one line ("Austin 73301").
    private static let cityThenPostalCode: Set<String> = ["US", "CA", "AU", "JP"]
    /// Countries that give the postal code a line of its own, after the city.
    private static let postalCodeOnItsOwnLine: Set<String> = ["GB", "IE"]

    /// "435 Rue de Rivoli", "75001 Paris", "France" (postal code first: most of Europe); the
    /// city line is "Austin 73301" in the United States, the postal code its own line in the
    /// United Kingdom.
    static func lines(of address: ShippingAddress, locale: Locale) -> [String] {
        let country = locale.localizedString(forRegionCode: address.country) ?? address.country
        if postalCodeOnItsOwnLine.contains(address.country) {
            return [address.street, address.city, address.postalCode, country]
        }
        let cityLine =
            cityThenPostalCode.contains(address.country)
            ? "\(address.city) \(address.postalCode)" : "\(address.postalCode) \(address.city)"
        return [address.street, cityLine, country]
    }
}
