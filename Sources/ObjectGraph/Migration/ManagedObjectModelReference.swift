import Foundation

/// A model version a staged migration names: the model and its version checksum.
///
/// ```swift
/// let v1 = ManagedObjectModelReference(model: modelV1, versionChecksum: modelV1.versionChecksum)
/// ```
///
/// - Note: Mirrors `NSManagedObjectModelReference`.
public final class ManagedObjectModelReference: Sendable {
    /// The model.
    ///
    /// - Note: Mirrors `resolvedModel`.
    public let resolvedModel: ManagedObjectModel
    /// The model's ``ManagedObjectModel/versionChecksum``.
    public let versionChecksum: String

    /// A reference to `model`, checked against the checksum the caller expects.
    ///
    /// - Parameters:
    ///   - model: The model version.
    ///   - versionChecksum: Its ``ManagedObjectModel/versionChecksum`` as the caller recorded it.
    /// - Precondition: `versionChecksum` is `model`'s checksum (Core Data traps likewise when a
    ///   reference does not match its model).
    /// - Note: Mirrors `init(model:versionChecksum:)`.
    public init(model: ManagedObjectModel, versionChecksum: String) {
        precondition(
            model.versionChecksum == versionChecksum,
            "ObjectGraph: model reference checksum \(versionChecksum) does not match the model's "
                + "\(model.versionChecksum)")
        self.resolvedModel = model
        self.versionChecksum = versionChecksum
    }

    /// A reference to one version of a model file (see
    /// ``ManagedObjectModel/init(contentsOf:version:classResolver:modules:)``).
    ///
    /// - Throws: As that initializer, and `.coreData` (134060) when the version's checksum is
    ///   not `versionChecksum`.
    /// - Note: Mirrors `init(fileURL:versionChecksum:)`.
    public convenience init(fileURL: URL, version: String? = nil, versionChecksum: String) throws {
        let model = try ManagedObjectModel(contentsOf: fileURL, version: version)
        guard model.versionChecksum == versionChecksum else {
            throw ObjectGraphError(
                .modelVersionMismatch,
                "model \(fileURL.path): its version checksum is \(model.versionChecksum), not "
                    + versionChecksum, file: fileURL.path)
        }
        self.init(model: model, versionChecksum: versionChecksum)
    }
}

extension ManagedObjectModel {
    /// The model's version checksum: ``versionHash`` in base64, the string staged migration
    /// stages name model versions by.
    ///
    /// - Note: Mirrors `NSManagedObjectModel.versionChecksum`.
    public var versionChecksum: String { versionHash.base64EncodedString() }
}
