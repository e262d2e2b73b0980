import CLZ4
import COpenSSL
import CSQLite

/// The versions of the system libraries this build runs with (read at run time, so a
/// `journal --version` on a user's machine names what is really loaded), and the journal's
/// on-disk format versions. Each value comes from the library's own version call.
public enum LinkedLibraries {
    /// SQLite's `sqlite3_libversion()`, e.g. `3.40.1`.
    public static var sqlite: String { String(cString: sqlite3_libversion()) }
    /// OpenSSL's `OpenSSL_version(OPENSSL_VERSION)`, e.g. `OpenSSL 3.0.15 3 Sep 2024`.
    public static var openSSL: String { String(cString: OpenSSL_version(OPENSSL_VERSION)) }
    /// LZ4's `LZ4_versionString()`, e.g. `1.9.4`.
    public static var lz4: String { String(cString: LZ4_versionString()) }
    /// The SQLite journal's format (`PRAGMA user_version`) this build writes.
    public static var sqliteJournalFormat: Int64 { SQLiteEventStore.schemaVersion }
    /// The PostgreSQL journal's schema version this build writes.
    public static var postgresJournalFormat: String { PostgresEventStore.schemaVersion }
}
