import Foundation

/// An independent cosignature/v1 implementation for the tests: Python's `cryptography` Ed25519
/// and `hashlib`, not the journal's code. Skipped where Python or the package is missing, except
/// in CI (`CI` set), where that fails.
enum PythonEd25519 {
    static var available: Bool {
        run(script: "import cryptography", input: "") != nil
    }

    static var required: Bool { ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty } ?? false }

    /// Given the seed (hex), the key name, the time and the note text on stdin (after a first
    /// line `<seed hex> <name> <time>`), prints the key id (hex), the verifier key and the
    /// cosignature line, one per line.
    static let cosignScript = """
        import sys, base64, hashlib
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
        from cryptography.hazmat.primitives import serialization
        data = sys.stdin.buffer.read()
        first, text = data.split(b"\\n", 1)
        seed_hex, name, time = first.decode().split(" ")
        key = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(seed_hex))
        public = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        key_id = hashlib.sha256(name.encode() + b"\\n" + b"\\x04" + public).digest()[:4]
        message = b"cosignature/v1\\ntime " + time.encode() + b"\\n" + text
        signature = key.sign(message)
        stamp = int(time).to_bytes(8, "big")
        print(key_id.hex())
        print(name + "+" + key_id.hex() + "+" + base64.b64encode(b"\\x04" + public).decode())
        print("\\u2014 " + name + " " + base64.b64encode(key_id + stamp + signature).decode())
        """

    /// Verifies a cosignature line on stdin's note text: prints `ok` or `bad`.
    static let verifyScript = """
        import sys, base64, hashlib
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
        data = sys.stdin.buffer.read()
        first, text = data.split(b"\\n", 1)
        vkey, line_b64 = first.decode().split(" ")
        name, key_hex, key_b64 = vkey.split("+")
        raw = base64.b64decode(key_b64)
        assert raw[0] == 4
        public = Ed25519PublicKey.from_public_bytes(raw[1:])
        sig = base64.b64decode(line_b64)
        assert sig[:4].hex() == key_hex
        time = int.from_bytes(sig[4:12], "big")
        message = b"cosignature/v1\\ntime " + str(time).encode() + b"\\n" + text
        try:
            public.verify(sig[12:], message)
            print("ok")
        except Exception:
            print("bad")
        """

    /// Runs `python3 -c script` with `input` on stdin; its stdout, or nil when it failed.
    static func run(script: String, input: String) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return nil
        }
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try? stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: output, as: UTF8.self)
    }
}
