package io.mvsink.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

/**
 * {@link SchemaRegistry} over the Confluent REST API (also served by Apicurio Registry's
 * {@code /apis/ccompat/v7}). Thread-safe. Schemas by id and ids by (subject, schema) are cached
 * for the life of the client: both are immutable in the registry.
 *
 * <p>Apicurio 2.6.x ccompat quirks this client copes with: see {@code RegistryClientIT}.
 */
public final class RegistryClient implements SchemaRegistry {
    private final RegistrySettings settings;
    private final RegistryHttp http;
    private final Map<Integer, Schema> schemasById = new ConcurrentHashMap<>();
    private final Map<SubjectSchema, Integer> idsBySubjectSchema = new ConcurrentHashMap<>();
    private final Set<SubjectId> versionsOf = ConcurrentHashMap.newKeySet();

    /** A schema id known to be a version of a subject: true forever, so cached. */
    private record SubjectId(String subject, int id) {
    }

    /** The cache key of a registration: the full JSON text, so docs and defaults count. */
    private record SubjectSchema(String subject, String schemaJson) {
    }

    /**
     * A client with its own JDK HTTP client, on HTTP/1.1: the JDK's default (HTTP/2) would
     * probe every plain-http connection with an h2c upgrade, which many proxies in front of
     * registries refuse or mangle, for nothing a few small JSON calls need.
     */
    public RegistryClient(RegistrySettings settings) {
        this(settings, HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(settings.requestTimeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .build());
    }

    /** A client over a given JDK HTTP client (shared pools, proxies, TLS settings). */
    public RegistryClient(RegistrySettings settings, HttpClient httpClient) {
        this.settings = settings;
        this.http = new RegistryHttp(settings, httpClient, new ObjectMapper());
    }

    @Override
    public int register(String subject, Schema schema) {
        SubjectSchema key = new SubjectSchema(subject, schema.toString());
        Integer cached = idsBySubjectSchema.get(key);
        if (cached != null) {
            return cached;
        }
        JsonNode answer = http.post("/subjects/" + encode(subject) + "/versions", Map.of("schema", key.schemaJson()));
        JsonNode id = answer.get("id");
        if (id == null || !id.canConvertToInt()) {
            throw new RegistryRequestException("registry answered registration of subject " + subject
                    + " without an id: " + answer, 200);
        }
        int schemaId = id.intValue();
        idsBySubjectSchema.putIfAbsent(key, schemaId);
        // What we write under this id is this schema, so it is a valid writer schema for it.
        schemasById.putIfAbsent(schemaId, schema);
        return schemaId;
    }

    @Override
    public Schema schemaById(int id) {
        Schema cached = schemasById.get(id);
        if (cached != null) {
            return cached;
        }
        JsonNode answer = http.get("/schemas/ids/" + id);
        String text = answer.path("schema").asText(null);
        if (text == null) {
            throw new RegistryRequestException("registry answered schema id " + id + " without a schema: " + answer, 200);
        }
        Schema schema = parse(id, text);
        Schema raced = schemasById.putIfAbsent(id, schema);
        return raced != null ? raced : schema;
    }

    @Override
    public SubjectVersion latest(String subject) {
        JsonNode answer = http.get("/subjects/" + encode(subject) + "/versions/latest");
        JsonNode id = answer.get("id");
        String text = answer.path("schema").asText(null);
        if (id == null || !id.canConvertToInt() || text == null) {
            throw new RegistryRequestException("registry answered the latest version of subject " + subject
                    + " without an id and schema: " + answer, 200);
        }
        Schema schema = schemasById.computeIfAbsent(id.intValue(), known -> parse(known, text));
        return new SubjectVersion(subject, id.intValue(), schema);
    }

    /**
     * Asks the registry which subject versions the id is ({@code GET /schemas/ids/{id}/versions}).
     * A registry that does not serve that call (it answers 404 for it) is asked to look the id's
     * schema up under the subject instead ({@code POST /subjects/{subject}?normalize=true}) with the
     * registry's own text of the id, never Avro's re-rendering: a registry that matches the text
     * byte for byte (as Apicurio does without {@code normalize}) would miss a schema registered as
     * an indented {@code .avsc} file, with its attributes in another order or with {@code doc}s.
     */
    @Override
    public boolean isVersionOf(String subject, int id) {
        SubjectId key = new SubjectId(subject, id);
        if (versionsOf.contains(key)) {
            return true;
        }
        boolean version;
        try {
            version = listsSubject(http.get("/schemas/ids/" + id + "/versions"), subject);
        } catch (UnknownSchemaException noVersionsCall) {
            version = lookedUpUnder(subject, id);
        }
        if (version) {
            versionsOf.add(key);
        }
        return version;
    }

    private static boolean listsSubject(JsonNode versions, String subject) {
        for (JsonNode version : versions) {
            if (subject.equals(version.path("subject").asText(null))) {
                return true;
            }
        }
        return false;
    }

    private boolean lookedUpUnder(String subject, int id) {
        JsonNode answer;
        try {
            String text = http.get("/schemas/ids/" + id).path("schema").asText(null);
            if (text == null) {
                return false;
            }
            answer = http.post("/subjects/" + encode(subject) + "?normalize=true", Map.of("schema", text));
        } catch (UnknownSchemaException unknownIdOrNotUnderSubject) {
            return false;
        }
        JsonNode found = answer.get("id");
        return found != null && found.canConvertToInt() && found.intValue() == id;
    }

    @Override
    public void setCompatibility(String subject, String level) {
        http.put("/config/" + encode(subject), Map.of("compatibility", level));
    }

    @Override
    public String compatibility(String subject) {
        JsonNode answer;
        try {
            answer = http.get("/config/" + encode(subject));
        } catch (UnknownSchemaException noSubjectLevel) {
            answer = http.get("/config");
        }
        return level(answer);
    }

    @Override
    public String toString() {
        return "RegistryClient[" + settings.baseUrl() + ", user="
                + settings.basicAuth().map(RegistrySettings.BasicAuth::user).orElse("-") + "]";
    }

    private static String level(JsonNode answer) {
        // Confluent answers GET with compatibilityLevel, PUT with compatibility.
        String level = answer.path("compatibilityLevel").asText(null);
        if (level == null) {
            level = answer.path("compatibility").asText(null);
        }
        if (level == null) {
            throw new RegistryRequestException("registry answered a config request without a level: " + answer, 200);
        }
        return level;
    }

    private static Schema parse(int id, String text) {
        try {
            return new Schema.Parser().parse(text);
        } catch (SchemaParseException e) {
            throw new RegistryRequestException("registry's schema for id " + id + " is not valid Avro: " + e.getMessage(), 200);
        }
    }

    private static String encode(String subject) {
        return URLEncoder.encode(subject, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
