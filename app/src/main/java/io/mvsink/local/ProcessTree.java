package io.mvsink.local;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Destroys a process and its descendants: gracefully first, forcibly after a bounded wait. */
final class ProcessTree {

    static final Duration FORCED_WAIT = Duration.ofSeconds(5);

    private ProcessTree() {
    }

    /**
     * Sends SIGTERM to the process and every descendant, waits up to {@code grace} for all of
     * them, then SIGKILLs the survivors and waits up to {@link #FORCED_WAIT}. The descendants
     * are listed before the parent is signalled: once it dies they are re-parented and no
     * longer found through it.
     *
     * @return the processes still alive at the end (empty when the whole tree is gone)
     */
    static List<ProcessHandle> destroy(ProcessHandle root, Duration grace) {
        List<ProcessHandle> tree = tree(root);
        tree.forEach(ProcessHandle::destroy);
        awaitExit(tree, grace);
        List<ProcessHandle> survivors = alive(tree);
        survivors.forEach(ProcessHandle::destroyForcibly);
        awaitExit(survivors, FORCED_WAIT);
        return alive(survivors);
    }

    /** SIGKILL to {@code root} and its descendants, then waits for them to end. */
    static void destroyForcibly(ProcessHandle root) {
        List<ProcessHandle> tree = tree(root);
        tree.forEach(ProcessHandle::destroyForcibly);
        awaitExit(tree, FORCED_WAIT);
    }

    /** {@code root} and its descendants, listed before any is signalled (see {@link #destroy}). */
    private static List<ProcessHandle> tree(ProcessHandle root) {
        List<ProcessHandle> tree = new ArrayList<>();
        root.descendants().forEach(tree::add);
        tree.add(root);
        return tree;
    }

    private static List<ProcessHandle> alive(List<ProcessHandle> handles) {
        List<ProcessHandle> alive = new ArrayList<>();
        for (ProcessHandle handle : handles) {
            if (handle.isAlive()) {
                alive.add(handle);
            }
        }
        return alive;
    }

    private static void awaitExit(List<ProcessHandle> handles, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (ProcessHandle handle : handles) {
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                return;
            }
            try {
                handle.onExit().get(remaining, TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                return;
            } catch (ExecutionException e) {
                // onExit never completes exceptionally; treat as gone
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
