package io.mvsink.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/** The rows' registry subject, named by the producers' strategy (DESIGN.md section 3). */
class RowSubjectTest {

    private static MvsinkConfig config(String... overrides) {
        return TestConfigs.config(overrides);
    }

    private static String subject(String strategy, String recordName) {
        return config(MvsinkConfig.VALUE_SUBJECT_NAME_STRATEGY, strategy, MvsinkConfig.ROW_RECORD_NAME, recordName)
            .rowSubject();
    }

    private static ConfigException refused(String... overrides) {
        return assertThrows(ConfigException.class, () -> config(overrides), String.join(" ", overrides));
    }

    @Test
    void shouldNameTheSubjectAfterTheTopicByDefault() {
        MvsinkConfig config = config();

        assertEquals("orders-value", config.rowSubject());
        assertEquals(SubjectNameStrategy.TOPIC_NAME, config.subjectNameStrategy());
        assertEquals("orders-value", config(MvsinkConfig.VALUE_SUBJECT_NAME_STRATEGY, "TopicNameStrategy").rowSubject());
    }

    @Test
    void shouldNameTheSubjectAfterTheRecordWithRecordNameStrategy() {
        assertEquals("io.example.Row", subject("RecordNameStrategy", "io.example.Row"));
        assertEquals("Row", subject("RecordNameStrategy", "Row"));
    }

    @Test
    void shouldNameTheSubjectAfterTopicAndRecordWithTopicRecordNameStrategy() {
        assertEquals("orders-io.example.Row", subject("TopicRecordNameStrategy", "io.example.Row"));
    }

    @Test
    void shouldTakeConfluentsFullyQualifiedClassNames() {
        String confluent = "io.confluent.kafka.serializers.subject.";
        assertEquals("orders-value", config(MvsinkConfig.VALUE_SUBJECT_NAME_STRATEGY, confluent + "TopicNameStrategy")
            .rowSubject());
        assertEquals("io.example.Row", subject(confluent + "RecordNameStrategy", "io.example.Row"));
        assertEquals("orders-io.example.Row", subject(confluent + "TopicRecordNameStrategy", "io.example.Row"));
    }

    @Test
    void shouldRefuseARecordNameStrategyWithoutTheRecordNameNamingTheOption() {
        for (String strategy : new String[] {"RecordNameStrategy", "TopicRecordNameStrategy"}) {
            ConfigException e = refused(MvsinkConfig.VALUE_SUBJECT_NAME_STRATEGY, strategy);
            assertTrue(e.getMessage().contains(MvsinkConfig.ROW_RECORD_NAME), e.getMessage());
            assertTrue(e.getMessage().contains(strategy), e.getMessage());
        }
    }

    @Test
    void shouldRefuseARecordNameTheDefaultStrategyWouldIgnore() {
        ConfigException e = refused(MvsinkConfig.ROW_RECORD_NAME, "io.example.Row");

        assertTrue(e.getMessage().contains(MvsinkConfig.ROW_RECORD_NAME), e.getMessage());
        assertTrue(e.getMessage().contains("orders-value"), e.getMessage());
    }

    @Test
    void shouldRefuseAnUnknownStrategyNamingTheOptionAndTheChoices() {
        for (String bad : new String[] {"topic", "RecordNameStrategy2", "com.example.TopicNameStrategy",
            "io.confluent.kafka.serializers.subject.strategy.TopicNameStrategy"}) {
            ConfigException e = refused(MvsinkConfig.VALUE_SUBJECT_NAME_STRATEGY, bad);
            assertTrue(e.getMessage().contains(MvsinkConfig.VALUE_SUBJECT_NAME_STRATEGY), e.getMessage());
            assertTrue(e.getMessage().contains("TopicRecordNameStrategy"), e.getMessage());
        }
    }

    @Test
    void shouldRefuseARecordNameThatIsNotAnAvroFullName() {
        for (String bad : new String[] {"io.example.", "1Row", "io/example/Row", "io.example.Row-v2", ".Row"}) {
            ConfigException e = refused(MvsinkConfig.VALUE_SUBJECT_NAME_STRATEGY, "RecordNameStrategy",
                MvsinkConfig.ROW_RECORD_NAME, bad);
            assertTrue(e.getMessage().contains(MvsinkConfig.ROW_RECORD_NAME), bad + ": " + e.getMessage());
        }
    }
}
