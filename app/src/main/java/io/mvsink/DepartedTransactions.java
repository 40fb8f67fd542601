package io.mvsink;

import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Aborts the open transactions that no running stream thread of the app can end: those of an instance
 * killed with {@code kill -9} (or lost with its machine) and not restarted, or restarted without a task
 * on that thread. Until aborted, such a transaction holds the last stable offset of every partition it
 * wrote (the reports and consensus topics, the changelogs), so the appender reads no report and the
 * killed tasks' new owners restore no changelog past it. The broker aborts it only after the producer's
 * {@code transaction.timeout.ms} (10 s under Kafka Streams' exactly-once) plus up to its
 * {@code transaction.abort.timed.out.transaction.cleanup.interval.ms} (10 s): ProcessKillIT's longest
 * stalls ended when restores that had waited 8 s for it finished all at once.
 *
 * <p>Every second this lists the app's transactions open for at least {@link #MIN_AGE_MS} and fences
 * (Admin {@code fenceProducers}, which aborts the open transaction, as a restarted producer's
 * {@code initTransactions} does) each one whose stream thread holds no partition in the group: under
 * exactly-once v2 a thread's transactional id is {@code <application.id>-<process id>-<thread index>}
 * and its consumer's client id {@code <application.id>-<process id>-StreamThread-<thread index>-consumer},
 * and a thread without partitions sends nothing, so an open transaction under its id is a predecessor's.
 * A member that died stays in the group until its session times out, so its transactions are fenced
 * just after that, when its tasks move. If a member's client id has another form (a custom
 * {@code client.id}), nothing is fenced. Fencing a live producer would be safe (its thread is replaced
 * and its tasks start from what committed), only costly.
 */
final class DepartedTransactions implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DepartedTransactions.class);
    /** Younger transactions are not listed: a running stream thread commits every 100 ms under exactly-once. */
    static final long MIN_AGE_MS = 2_000;
    private static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);
    private static final Pattern THREAD_CONSUMER = Pattern.compile("(.+)-StreamThread-(\\d+)-consumer");

    private final Admin admin;
    private final String applicationId;
    private final ScheduledExecutorService executor;

    DepartedTransactions(Admin admin, String applicationId) {
        this.admin = admin;
        this.applicationId = applicationId;
        this.executor = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "mvsink-departed-transactions-" + applicationId);
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Checks every second, on a daemon thread of its own, until closed. */
    static DepartedTransactions start(Admin admin, String applicationId) {
        DepartedTransactions departed = new DepartedTransactions(admin, applicationId);
        departed.executor.scheduleWithFixedDelay(departed::checkQuietly, INTERVAL.toMillis(), INTERVAL.toMillis(),
            TimeUnit.MILLISECONDS);
        return departed;
    }

    private void checkQuietly() {
        try {
            fenceDeparted();
        } catch (Exception e) {
            LOG.debug("{}: could not check for departed transactions: {}", applicationId, e.toString());
        }
    }

    /** One check: fences the transactions no running thread of the app owns; returns their ids. */
    Set<String> fenceDeparted() throws Exception {
        Collection<TransactionListing> open = admin.listTransactions(new ListTransactionsOptions()
                .filterStates(List.of(TransactionState.ONGOING)).filterOnDuration(MIN_AGE_MS)
                .filterOnTransactionalIdPattern(Pattern.quote(applicationId + "-") + ".*"))
            .all().get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        if (open.isEmpty()) {
            return Set.of();
        }
        Set<String> departed = departed(applicationId, members(),
            open.stream().map(TransactionListing::transactionalId).toList());
        if (!departed.isEmpty()) {
            LOG.info("{}: aborting open transactions of stream threads that left the group: {}", applicationId,
                departed);
            admin.fenceProducers(departed).all().get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
        return departed;
    }

    /** The app's group members; none if the group does not exist (every instance is gone). */
    private Collection<MemberDescription> members() throws Exception {
        try {
            return admin.describeConsumerGroups(List.of(applicationId)).all()
                .get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).get(applicationId).members();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof GroupIdNotFoundException) {
                return List.of();
            }
            throw e;
        }
    }

    /**
     * Of {@code transactionalIds} (open transactions), those of the form {@code <applicationId>-<process>-<n>}
     * whose thread {@code n} of {@code process} holds no partition among {@code members}; none if a
     * member's client id is not a stream thread's of this app (the mapping is unknown then).
     */
    static Set<String> departed(String applicationId, Collection<MemberDescription> members,
                                Collection<String> transactionalIds) {
        String prefix = applicationId + "-";
        Set<String> working = new HashSet<>();
        for (MemberDescription member : members) {
            Matcher m = THREAD_CONSUMER.matcher(member.clientId());
            if (!m.matches() || !m.group(1).startsWith(prefix)) {
                return Set.of();
            }
            if (!member.assignment().topicPartitions().isEmpty()) {
                working.add(m.group(1) + "-" + Integer.parseInt(m.group(2)));
            }
        }
        Set<String> departed = new HashSet<>();
        for (String id : transactionalIds) {
            int dash = id.lastIndexOf('-');
            if (id.startsWith(prefix) && dash > prefix.length() && isIndex(id.substring(dash + 1))
                && !working.contains(id.substring(0, dash) + "-" + Integer.parseInt(id.substring(dash + 1)))) {
                departed.add(id);
            }
        }
        return departed;
    }

    private static boolean isIndex(String s) {
        return !s.isEmpty() && s.length() < 10 && s.chars().allMatch(Character::isDigit);
    }

    @Override
    public void close() {
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
                LOG.warn("{}: the departed-transactions check did not stop within 5 s", applicationId);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
