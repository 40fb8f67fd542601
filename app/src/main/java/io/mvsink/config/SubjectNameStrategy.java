package io.mvsink.config;

import java.util.Arrays;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * How the registry subject of the shard's rows is named: the producer's naming strategy, by the
 * names Confluent's serializers take in {@code value.subject.name.strategy}. A schema id belongs
 * to the shard if the registry records it as a version of that subject (DESIGN.md section 3).
 */
public enum SubjectNameStrategy {
    /** {@code <topic>-value}: Confluent's default. */
    TOPIC_NAME("TopicNameStrategy"),
    /** {@code <record full name>}: the subject is shared by every topic with rows of that record. */
    RECORD_NAME("RecordNameStrategy"),
    /** {@code <topic>-<record full name>}. */
    TOPIC_RECORD_NAME("TopicRecordNameStrategy");

    /** The package of Confluent's strategy classes, which producers may configure by full class name. */
    public static final String CONFLUENT_PACKAGE = "io.confluent.kafka.serializers.subject.";

    private final String className;

    SubjectNameStrategy(String className) {
        this.className = className;
    }

    /** The simple name of Confluent's class, e.g. {@code TopicNameStrategy}. */
    public String className() {
        return className;
    }

    /** The strategy named by Confluent's simple or fully qualified class name; empty for any other text. */
    public static Optional<SubjectNameStrategy> named(String name) {
        String simple = name.startsWith(CONFLUENT_PACKAGE) ? name.substring(CONFLUENT_PACKAGE.length()) : name;
        return Arrays.stream(values()).filter(s -> s.className.equals(simple)).findFirst();
    }

    /** Whether the subject is built from the row record's full name. */
    public boolean needsRecordName() {
        return this != TOPIC_NAME;
    }

    /** The subject of the rows of {@code topic} whose Avro record has {@code recordFullName}. */
    public String subject(String topic, String recordFullName) {
        return switch (this) {
            case TOPIC_NAME -> topic + "-value";
            case RECORD_NAME -> recordFullName;
            case TOPIC_RECORD_NAME -> topic + "-" + recordFullName;
        };
    }

    /** Accepts the names {@link #named} knows. */
    static final class Validator implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            if (value == null || named((String) value).isEmpty()) {
                throw new ConfigException(name, value, "must be one of " + this);
            }
        }

        @Override
        public String toString() {
            return String.join(", ", Arrays.stream(values()).map(SubjectNameStrategy::className).toList())
                + " (or the same with the package " + CONFLUENT_PACKAGE.substring(0, CONFLUENT_PACKAGE.length() - 1)
                + ")";
        }
    }

    /** An Avro full name, {@code [namespace.]name}, or empty. */
    static final class RecordNameValidator implements ConfigDef.Validator {
        private static final String NAME = "[A-Za-z_][A-Za-z0-9_]*";

        @Override
        public void ensureValid(String name, Object value) {
            String s = (String) value;
            if (s == null || (!s.isEmpty() && !s.matches(NAME + "(\\." + NAME + ")*"))) {
                throw new ConfigException(name, value, "must be an Avro record's full name, namespace.name "
                    + "(e.g. io.example.Row): names of letters, digits and '_' joined by '.'");
            }
        }

        @Override
        public String toString() {
            return "empty or an Avro full name";
        }
    }
}
