package io.mvsink.local;

/**
 * Lifecycle of a {@link ManagedProcess}.
 *
 * <pre>
 * NEW ──► STARTING ──► READY ──► STOPPED
 *  │         ├────────────────────▲   (stopped while starting, e.g. a sibling failed)
 *  │         └──► FAILED               (exited early or never ready; its tree is destroyed)
 *  └──────────────────────────────► STOPPED (stopped before it was started)
 * </pre>
 */
enum ProcessState {
    NEW, STARTING, READY, STOPPED, FAILED;

    boolean canMoveTo(ProcessState next) {
        switch (this) {
            case NEW:
                return next == STARTING || next == STOPPED;
            case STARTING:
                return next == READY || next == FAILED || next == STOPPED;
            case READY:
                return next == STOPPED;
            default:
                return false;
        }
    }

    boolean isTerminal() {
        return this == STOPPED || this == FAILED;
    }
}
