package io.mvsink.protocol;

import java.time.Duration;
import java.util.Objects;

/**
 * How the JVM's {@link BatchCoalescer} runs: built once from the app's options
 * ({@code Wiring.coalescerSettings}), and by name in tests ({@code of(mode).withThreads(2)}), so
 * that no call passes a run of numbers whose order only the constructor knows.
 *
 * @param mode how contributions of one range are coalesced ({@code coalescing.mode})
 * @param barrierTimeout in barrier mode, how long a builder waits for the JVM's other tasks of its
 *     range before it closes with those that came ({@code barrier.timeout.ms})
 * @param linger in best-effort mode, how long a builder whose work has drained stays open for more
 *     joins; zero closes it as soon as its work drains ({@code best.effort.linger.ms})
 * @param maxQueuedBytes contribution bytes queued for the builders, JVM-wide, above which a task's
 *     contribution is refused and stays in its buffer ({@code builder.max.queued.bytes})
 * @param threads the builders' pool ({@code builder.threads})
 */
public record CoalescerSettings(CoalescingMode mode, Duration barrierTimeout, Duration linger, long maxQueuedBytes,
                                int threads) {

    /** The options' defaults (MvsinkConfig's; {@code WiringSettingsTest} checks that the two agree). */
    public static final CoalescerSettings DEFAULTS = new CoalescerSettings(CoalescingMode.BARRIER,
        Duration.ofSeconds(2), Duration.ofMillis(250), 64L << 20, 2);

    public CoalescerSettings {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(barrierTimeout, "barrierTimeout");
        Objects.requireNonNull(linger, "linger");
        if (barrierTimeout.isNegative() || barrierTimeout.isZero()) {
            throw new IllegalArgumentException("the barrier timeout must be positive: " + barrierTimeout);
        }
        if (linger.isNegative()) {
            throw new IllegalArgumentException("the linger must not be negative: " + linger);
        }
        if (maxQueuedBytes < 1) {
            throw new IllegalArgumentException("the queued bytes' bound must be positive: " + maxQueuedBytes);
        }
        if (threads < 1) {
            throw new IllegalArgumentException("the builders need at least one thread: " + threads);
        }
    }

    /** The defaults in another mode. */
    public static CoalescerSettings of(CoalescingMode mode) {
        return DEFAULTS.withMode(mode);
    }

    public CoalescerSettings withMode(CoalescingMode mode) {
        return new CoalescerSettings(mode, barrierTimeout, linger, maxQueuedBytes, threads);
    }

    public CoalescerSettings withBarrierTimeout(Duration barrierTimeout) {
        return new CoalescerSettings(mode, barrierTimeout, linger, maxQueuedBytes, threads);
    }

    public CoalescerSettings withLinger(Duration linger) {
        return new CoalescerSettings(mode, barrierTimeout, linger, maxQueuedBytes, threads);
    }

    public CoalescerSettings withMaxQueuedBytes(long maxQueuedBytes) {
        return new CoalescerSettings(mode, barrierTimeout, linger, maxQueuedBytes, threads);
    }

    public CoalescerSettings withThreads(int threads) {
        return new CoalescerSettings(mode, barrierTimeout, linger, maxQueuedBytes, threads);
    }
}
