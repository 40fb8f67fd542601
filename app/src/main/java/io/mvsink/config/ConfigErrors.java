package io.mvsink.config;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.config.ConfigException;

/**
 * The errors of one configuration, gathered so that a start reports them all at once rather than
 * one per attempt. Each keeps its own {@link ConfigException} message (option, value with secrets
 * hidden, reason); several are thrown together as {@link Several}, one per line.
 */
public final class ConfigErrors {
    private final List<ConfigException> errors = new ArrayList<>();

    /** Adds {@code error}, or each error of a {@link Several}. */
    public void add(ConfigException error) {
        if (error instanceof Several several) {
            errors.addAll(several.errors());
        } else {
            errors.add(error);
        }
    }

    /** Runs {@code check} and keeps the {@link ConfigException} it throws, if any. */
    public void check(Runnable check) {
        try {
            check.run();
        } catch (ConfigException e) {
            add(e);
        }
    }

    public boolean isEmpty() {
        return errors.isEmpty();
    }

    /** Throws the one error as it is, or every error as a {@link Several}; returns if there is none. */
    public void throwIfAny() {
        if (errors.size() == 1) {
            throw errors.get(0);
        }
        if (!errors.isEmpty()) {
            throw new Several(errors);
        }
    }

    /** Several errors of one configuration: "N configuration errors:", then one per line. */
    public static final class Several extends ConfigException {
        private static final long serialVersionUID = 1L;
        private final transient List<ConfigException> errors;

        Several(List<ConfigException> errors) {
            super(errors.size() + " configuration errors:\n  " + String.join("\n  ",
                errors.stream().map(ConfigException::getMessage).toList()));
            this.errors = List.copyOf(errors);
            errors.forEach(this::addSuppressed);
        }

        public List<ConfigException> errors() {
            return errors;
        }
    }
}
