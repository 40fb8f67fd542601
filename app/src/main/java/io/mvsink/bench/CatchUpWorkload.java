package io.mvsink.bench;

import io.mvsink.produce.CorrectionSource;
import io.mvsink.produce.WideWorkload;
import io.mvsink.produce.Workload;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A workload of the catch-up bench, each seeded alike: {@code narrow}, the {@link Workload}'s rows
 * of three fields, and {@code wide}, the {@link WideWorkload}'s realistic rows of eight with
 * multiplicities above 1 and late updates. Both over {@value #KEYS} row keys with 30% retractions.
 */
public enum CatchUpWorkload {
    NARROW, WIDE;

    static final long SEED = 11;
    static final int KEYS = 50_000;
    static final double RETRACT_SHARE = 0.3;
    /** The wide workload's share of late updates. */
    static final double LATE_SHARE = 0.005;

    /** The option's name of this workload. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The workload's correction source, seeded as every run of the bench. */
    CorrectionSource source() {
        return this == NARROW ? new Workload(SEED, KEYS, RETRACT_SHARE)
            : new WideWorkload(SEED, KEYS, RETRACT_SHARE, LATE_SHARE);
    }

    /** One line for the report. */
    String describe() {
        return this == NARROW
            ? "narrow rows (id, category, amount), 50,000 keys, 30% retractions of -1, inserts of +1 to +3"
            : "wide rows (8 fields: strings with quotes, backslashes and non-ASCII, nullable string and long, string "
                + "array, double, boolean), 50,000 keys x 4 variants, 30% retractions of -1, -2 or the whole count, "
                + "inserts of +1 to +3, 0.5% late updates";
    }

    /** The value of {@code --workload}: {@code narrow}, {@code wide} or {@code both} (narrow, then wide). */
    public static List<CatchUpWorkload> parse(String value) {
        if (value.equals("both")) {
            return List.of(values());
        }
        return Arrays.stream(values()).filter(w -> w.label().equals(value)).findFirst().map(List::of)
            .orElseThrow(() -> new IllegalArgumentException("--workload: unknown workload '" + value
                + "' (narrow, wide, both)"));
    }
}
