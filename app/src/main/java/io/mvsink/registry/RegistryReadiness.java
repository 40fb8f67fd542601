package io.mvsink.registry;

import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The start-up check of the schema registry: asks for the subject's compatibility level until the
 * registry answers, for at most a timeout, so that an app never starts its stream threads against
 * a registry it cannot reach or is refused by. Gives up with a message that says what to fix.
 */
public final class RegistryReadiness {
    private static final Logger LOG = LoggerFactory.getLogger(RegistryReadiness.class);
    private static final long RETRY_MS = 1_000;

    private RegistryReadiness() {
    }

    /**
     * Returns once {@code registry} answers for {@code subject}.
     *
     * @param url shown in the messages (never a credential: the basic auth is not part of it)
     * @throws RegistryException unreachable for {@code timeoutMs}, or refusing the request (e.g. 401)
     */
    public static void await(SchemaRegistry registry, String subject, String url, long timeoutMs, Time time) {
        await(registry, subject, url, timeoutMs, time, () -> { });
    }

    /**
     * As {@link #await(SchemaRegistry, String, String, long, Time)}, running {@code beforeRetry} before
     * each retry: a check of something else that starts meanwhile, which may throw to stop the wait.
     */
    public static void await(SchemaRegistry registry, String subject, String url, long timeoutMs, Time time,
                             Runnable beforeRetry) {
        long deadline = time.milliseconds() + timeoutMs;
        int attempts = 0;
        while (true) {
            attempts++;
            try {
                registry.compatibility(subject);
                if (attempts > 1) {
                    LOG.info("schema registry at {} answered after {} attempts", url, attempts);
                }
                return;
            } catch (RegistryUnavailableException e) {
                long left = deadline - time.milliseconds();
                if (left <= 0) {
                    throw new RegistryUnavailableException("schema registry at " + url + " did not answer within "
                        + timeoutMs + " ms (" + attempts + " attempts; last: " + e.getMessage() + "). Check "
                        + "schema.registry.url and that the registry is running and reachable from here; "
                        + "schema.registry.startup.timeout.ms sets how long to wait.", e);
                }
                LOG.warn("schema registry at {} not reachable yet ({}); retrying for {} ms more", url,
                    e.getMessage(), left);
                beforeRetry.run();
                time.sleep(Math.min(RETRY_MS, left));
            } catch (UnknownSchemaException e) {
                throw new RegistryRequestException("schema registry at " + url + " answered 'not found' to its "
                    + "global config (" + e.getMessage() + "). Check that schema.registry.url is the base URL of a "
                    + "Confluent-compatible API (for Apicurio: .../apis/ccompat/v7).", 404);
            } catch (RegistryRequestException e) {
                throw new RegistryRequestException("schema registry at " + url + " refused the start-up check: "
                    + e.getMessage() + ". Check schema.registry.url (the Confluent API's base URL) and "
                    + "schema.registry.basic.auth.user.info.", e.status());
            }
        }
    }
}
