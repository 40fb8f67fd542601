package io.mvsink.it;

import io.mvsink.config.MvsinkConfig;
import io.mvsink.metrics.ShardJmx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;

/**
 * Slots of {@code mvsink run} children of one shard, each slot with its own state dir (the
 * harness's instance dir of that index), to start, kill (SIGKILL), restart and stop (SIGTERM)
 * while the shard runs. Every child opens remote JMX on a port of its own; the fleet reads each
 * child's {@code orphaned-batches-total} whenever asked and once more just before stopping it, and
 * {@link #orphanedBatches()} sums the last reading of every child process that ever ran.
 */
final class ChildFleet implements AutoCloseable {
    private final SinkHarness sink;
    private final List<String> jvmOptions;
    private final List<String> args;
    private final ObjectName shard;
    private final Slot[] slots;
    private final List<ChildApp> everyChild = new ArrayList<>();
    private long stoppedOrphans;
    private int stoppedUnread;

    /** One slot: the child running in it (or null), its JMX port and connection, and its last reading. */
    private static final class Slot {
        final int index;
        ChildApp child;
        int port;
        JMXConnector jmx;
        long orphans = -1;
        int starts;

        Slot(int index) {
            this.index = index;
        }
    }

    ChildFleet(SinkHarness sink, int slots, List<String> jvmOptions, List<String> args) throws Exception {
        this.sink = sink;
        this.jvmOptions = jvmOptions;
        this.args = args;
        this.shard = ShardJmx.objectName(sink.correctionsTopic());
        this.slots = IntStream.range(0, slots).mapToObj(Slot::new).toArray(Slot[]::new);
    }

    /** Starts a child in the empty slot {@code index}, with that slot's state dir and a fresh JMX port. */
    void start(int index) throws Exception {
        Slot slot = slots[index];
        if (slot.child != null) {
            throw new IllegalStateException("slot " + index + " already runs a child");
        }
        slot.port = ChildJmx.freePort();
        slot.orphans = -1;
        List<String> jvm = new ArrayList<>(jvmOptions);
        jvm.addAll(ChildJmx.agentOptions(slot.port));
        List<String> childArgs = new ArrayList<>(args);
        childArgs.addAll(List.of("--set", MvsinkConfig.STATE_DIR + "=" + sink.config(index).getString(MvsinkConfig.STATE_DIR)));
        slot.child = ChildApp.start(sink, "slot" + index + "-" + slot.starts++, jvm, childArgs);
        everyChild.add(slot.child);
    }

    /** Every child the fleet started, in start order. */
    List<ChildApp> everyChild() {
        return List.copyOf(everyChild);
    }

    /** SIGKILL to the child of slot {@code index}, after a last orphan reading; the slot is empty afterwards. */
    void kill(int index) throws Exception {
        Slot slot = slots[index];
        read(slot);
        slot.child.kill();
        retire(slot);
    }

    /** SIGTERM to the child of slot {@code index}, after a last orphan reading; true if it stopped within 60 s. */
    boolean terminate(int index) throws Exception {
        Slot slot = slots[index];
        read(slot);
        boolean stopped = slot.child.terminate(Duration.ofSeconds(60));
        if (!stopped) {
            slot.child.kill();
        }
        retire(slot);
        return stopped;
    }

    /** Indexes of the slots that run a child. */
    List<Integer> running() {
        List<Integer> running = new ArrayList<>();
        for (Slot slot : slots) {
            if (slot.child != null) {
                running.add(slot.index);
            }
        }
        return running;
    }

    /** Indexes of the empty slots. */
    List<Integer> empty() {
        List<Integer> empty = new ArrayList<>();
        for (Slot slot : slots) {
            if (slot.child == null) {
                empty.add(slot.index);
            }
        }
        return empty;
    }

    /** Fails if a child exited by itself (e.g. its app went to ERROR), naming it and the tail of its log. */
    void assertAllAlive() throws Exception {
        for (Slot slot : slots) {
            if (slot.child != null && !slot.child.process().isAlive()) {
                String log = slot.child.log();
                java.nio.file.Path file = java.nio.file.Files.createTempFile("mvsink-child-" + slot.index + "-", ".log");
                java.nio.file.Files.writeString(file, log);
                throw new AssertionError("child of slot " + slot.index + " exited by itself with "
                    + slot.child.process().exitValue() + " (whole log: " + file + "); its errors:\n"
                    + errors(log) + "\nits last lines:\n" + log.substring(Math.max(0, log.length() - 4000)));
            }
        }
    }

    /** The ERROR lines of a child's log, each with the 8 lines after it (the stack trace's top). */
    private static String errors(String log) {
        String[] lines = log.split("\n");
        StringBuilder errors = new StringBuilder();
        for (int i = 0; i < lines.length && errors.length() < 8000; i++) {
            if (lines[i].contains(" ERROR ")) {
                for (int j = i; j < Math.min(lines.length, i + 9); j++) {
                    errors.append(lines[j]).append('\n');
                }
            }
        }
        return errors.toString();
    }

    /** Reads every running child's orphaned-batch count. */
    void readAll() {
        for (Slot slot : slots) {
            if (slot.child != null) {
                read(slot);
            }
        }
    }

    /** Orphaned batches: the last reading of every child that ever ran (running children are read now). */
    long orphanedBatches() {
        readAll();
        long sum = stoppedOrphans;
        for (Slot slot : slots) {
            if (slot.child != null && slot.orphans > 0) {
                sum += slot.orphans;
            }
        }
        return sum;
    }

    /** Children stopped before their orphan count could ever be read (their JVM or app had not started yet). */
    int stoppedUnread() {
        return stoppedUnread;
    }

    private void read(Slot slot) {
        try {
            if (slot.jmx == null) {
                slot.jmx = ChildJmx.connect(slot.port);
            }
            MBeanServerConnection server = slot.jmx.getMBeanServerConnection();
            // the MBean is registered before the stream threads start, so a child without it holds no batch
            slot.orphans = server.isRegistered(shard)
                ? ChildJmx.get(server, shard, "orphaned-batches-total") : Math.max(slot.orphans, 0);
        } catch (Exception e) {
            closeJmx(slot);
        }
    }

    private void retire(Slot slot) {
        if (slot.orphans >= 0) {
            stoppedOrphans += slot.orphans;
        } else {
            stoppedUnread++;
        }
        closeJmx(slot);
        slot.child = null;
    }

    private static void closeJmx(Slot slot) {
        if (slot.jmx != null) {
            try {
                slot.jmx.close();
            } catch (Exception ignored) {
                // the child is gone or going: nothing to close on our side
            }
            slot.jmx = null;
        }
    }

    /** Kills what still runs: the checks are done, a graceful stop would only cost time. */
    @Override
    public void close() throws Exception {
        for (Slot slot : slots) {
            closeJmx(slot);
            if (slot.child != null) {
                slot.child.kill();
                slot.child = null;
            }
        }
    }
}
