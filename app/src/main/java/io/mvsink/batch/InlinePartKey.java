package io.mvsink.batch;

import java.util.HexFormat;
import java.util.OptionalLong;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;

/**
 * The key of an inline part ({@code Part.inline}): {@code inline:} and 16 hex digits, the
 * fingerprint of the row schema its updates were written with: Avro's 64-bit Rabin fingerprint
 * of the schema's parsing canonical form ({@link SchemaNormalization#parsingFingerprint64}).
 *
 * <p>A blob part is a container file that carries its writer schema; an inline part carries only
 * its schema id, which the registry resolves. The fingerprint lets a reader check that the
 * registry still gives that id the schema the part was written with: a registry restored with
 * other ids, or an id reused after a hard delete, then fails the read instead of decoding the
 * bytes into wrong rows (a schema of the same layout would decode them without a complaint).
 *
 * <p>The parsing canonical form keeps what decoding depends on and what the rows mean by name:
 * the record's full name, the fields' names, types and order, enum symbols, fixed sizes. It
 * leaves out docs, defaults, aliases and other attributes, logical types among them: schemas that
 * differ only there share a fingerprint and are not told apart.
 *
 * <p>The key field, not a new one, carries the fingerprint so that the stored schemas, and so the
 * bytes of every record that nests a part, stay as they were. Inline parts written before it have
 * the key {@code ""} ({@link #UNCHECKED}): they read as before, without a check. No reader uses
 * the key of an inline part otherwise (the blob GC, retired and garbage lists take only blob parts'
 * keys, {@code consensus.ShardState.blobKeys}), in this version and in the versions before it.
 */
public final class InlinePartKey {
    /** What every fingerprinted inline key starts with. */
    public static final String PREFIX = "inline:";
    /** The key of an inline part written before inline parts carried a fingerprint: nothing to check. */
    public static final String UNCHECKED = "";
    private static final int DIGITS = 16;

    private InlinePartKey() {
    }

    /** The key of an inline part written with {@code rowSchema}. */
    public static String of(Schema rowSchema) {
        return PREFIX + hex(fingerprint(rowSchema));
    }

    /** The fingerprint of {@code rowSchema}: 64-bit Rabin of its parsing canonical form. */
    public static long fingerprint(Schema rowSchema) {
        return SchemaNormalization.parsingFingerprint64(rowSchema);
    }

    /** {@code fingerprint} as the 16 lower-case hex digits of a key. */
    public static String hex(long fingerprint) {
        return HexFormat.of().toHexDigits(fingerprint);
    }

    /** Whether {@code key} is an inline part's key: {@link #UNCHECKED} or {@link #PREFIX} and 16 hex digits. */
    public static boolean isWellFormed(String key) {
        if (key.equals(UNCHECKED)) {
            return true;
        }
        if (!key.startsWith(PREFIX) || key.length() != PREFIX.length() + DIGITS) {
            return false;
        }
        for (int i = PREFIX.length(); i < key.length(); i++) {
            if (!HexFormat.isHexDigit(key.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The writer schema's fingerprint {@code key} records; empty for {@link #UNCHECKED}.
     *
     * @throws IllegalArgumentException if the key is not {@linkplain #isWellFormed well formed}
     */
    public static OptionalLong recorded(String key) {
        if (!isWellFormed(key)) {
            throw new IllegalArgumentException("\"" + key + "\" is no inline part's key");
        }
        return key.equals(UNCHECKED) ? OptionalLong.empty()
            : OptionalLong.of(HexFormat.fromHexDigitsToLong(key, PREFIX.length(), key.length()));
    }
}
