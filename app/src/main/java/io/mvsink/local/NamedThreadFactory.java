package io.mvsink.local;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Daemon threads named {@code prefix-N}, so a thread dump says whose they are. */
final class NamedThreadFactory implements ThreadFactory {

    private final String prefix;
    private final AtomicInteger next = new AtomicInteger(1);

    NamedThreadFactory(String prefix) {
        this.prefix = prefix;
    }

    @Override
    public Thread newThread(Runnable task) {
        Thread thread = new Thread(task, prefix + "-" + next.getAndIncrement());
        thread.setDaemon(true);
        return thread;
    }
}
