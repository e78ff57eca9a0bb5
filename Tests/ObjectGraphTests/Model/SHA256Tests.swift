import Foundation
import Testing

@testable import ObjectGraph

@Suite struct SHA256Tests {
    private static func hex(_ data: Data) -> String {
        data.map { String(format: "%02x", $0) }.joined()
    }

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func matchesNISTVectors(message: String, digest: String) {
        #expect(Self.hex(SHA256.hash(Data(message.utf8))) == digest)
    }

    @Test func matchesNISTMillionAVector() {
        let digest = SHA256.hash(Data(repeating: UInt8(ascii: "a"), count: 1_000_000))
        #expect(
            Self.hex(digest) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func hexTruncatesToTheFirstBytes() {
        #expect(
            SHA256.hex("abc".utf8)
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex("abc".utf8, bytes: 16) == "ba7816bf8f01cfea414140de5dae2223")
        #expect(
            SHA256.hex(String(repeating: "a", count: 1000).utf8)
                == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    @Test func paddingBoundariesMatchKnownDigests() {
        // 55 bytes fit one block with the length; 56 bytes need a second block.
        #expect(
            Self.hex(SHA256.hash(Data(repeating: 0x61, count: 55)))
                == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
        #expect(
            Self.hex(SHA256.hash(Data(repeating: 0x61, count: 56)))
                == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
        #expect(
            Self.hex(SHA256.hash(Data(repeating: 0x61, count: 64)))
                == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
    }
}
