import Foundation

/// Finds the `contents` XML to read for a `.xcdatamodeld` bundle, a `.xcdatamodel` folder or
/// a contents file, choosing a bundle's version as Xcode does.
enum XcodeModelLocator {
    /// The contents file for `url`.
    ///
    /// - Parameter version: For a `.xcdatamodeld`, the version folder to read (`"Model 2"` or
    ///   `"Model 2.xcdatamodel"`); `nil` reads the current version named by `.xccurrentversion`,
    ///   or the only version.
    static func contentsFile(for url: URL, version: String?) throws -> URL {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ModelError.xcodeModelLocation(path, problem: "no such file or folder")
        }
        guard isDirectory.boolValue else {
            if let version {
                throw ModelError.xcodeModelLocation(
                    path, problem: "version \(version) given for a single file")
            }
            return url
        }
        if url.pathExtension == "xcdatamodeld" {
            return try contentsFile(ofVersion: chooseVersion(in: url, named: version), in: url)
        }
        if let version, folderName(version) != url.lastPathComponent {
            throw ModelError.xcodeModelLocation(
                path,
                problem: "version \(version) given for the single version \(url.lastPathComponent)")
        }
        return try contentsFile(
            ofVersion: url.lastPathComponent, in: url.deletingLastPathComponent())
    }

    /// The `.xcdatamodel` folder names inside a bundle, sorted.
    static func versions(in bundle: URL) throws -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: bundle.path)
                .filter { $0.hasSuffix(".xcdatamodel") }.sorted()
        } catch {
            throw ModelError.xcodeModelLocation(
                bundle.path, problem: "cannot be listed (\(error.localizedDescription))")
        }
    }

    /// The version named by the bundle's `.xccurrentversion` plist, or `nil` when it has none.
    static func currentVersion(in bundle: URL) throws -> String? {
        let plistURL = bundle.appendingPathComponent(".xccurrentversion")
        guard FileManager.default.fileExists(atPath: plistURL.path) else { return nil }
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(
                from: InputFile.contents(of: plistURL), options: [], format: nil)
        } catch {
            throw ModelError.xcodeModelLocation(
                plistURL.path,
                problem: "is not a readable property list (\(error.localizedDescription))")
        }
        guard let name = (plist as? [String: Any])?["_XCCurrentVersionName"] as? String,
            !name.isEmpty
        else {
            throw ModelError.xcodeModelLocation(
                plistURL.path, problem: "has no _XCCurrentVersionName string")
        }
        return name
    }

    private static func chooseVersion(in bundle: URL, named requested: String?) throws -> String {
        let available = try versions(in: bundle)
        let listing = available.isEmpty ? "none" : available.joined(separator: ", ")
        if let requested {
            guard available.contains(folderName(requested)) else {
                throw ModelError.xcodeModelLocation(
                    bundle.path, problem: "has no version \(requested) (versions: \(listing))")
            }
            return folderName(requested)
        }
        if let current = try currentVersion(in: bundle) {
            guard available.contains(current) else {
                throw ModelError.xcodeModelLocation(
                    bundle.path,
                    problem:
                        ".xccurrentversion names \(current), which is not in the bundle (versions: \(listing))"
                )
            }
            return current
        }
        guard available.count == 1, let only = available.first else {
            throw ModelError.xcodeModelLocation(
                bundle.path,
                problem: "has no .xccurrentversion to choose among versions "
                    + "(\(listing)); pass version:")
        }
        return only
    }

    private static func contentsFile(ofVersion folder: String, in parent: URL) throws -> URL {
        let contents = parent.appendingPathComponent(folder).appendingPathComponent("contents")
        guard FileManager.default.fileExists(atPath: contents.path) else {
            throw ModelError.xcodeModelLocation(
                parent.appendingPathComponent(folder).path, problem: "has no contents file")
        }
        return contents
    }

    private static func folderName(_ version: String) -> String {
        version.hasSuffix(".xcdatamodel") ? version : version + ".xcdatamodel"
    }
}
