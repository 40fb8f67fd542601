package io.mvsink.registry;

import java.io.IOException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;

/**
 * Walks one Avro binary value under its writer schema without building it: every field is read or
 * skipped in order, union branches and enum symbols are checked against the schema, arrays and maps
 * are walked item by item, strings and bytes are skipped by their (bounded) length. It accepts
 * exactly the values that reading the whole datum with a {@code GenericDatumReader} of the same
 * schema accepts (no string is decoded there either), at a fraction of the cost: the input path
 * checks every update this way and keeps the bytes (profile in docs/ARCHITECTURE.md, "Cost per
 * update"). Built once per writer schema; thread-safe once built.
 */
final class RowValidator {
    private final Step root;

    /** One schema's walk over a decoder. */
    @FunctionalInterface
    private interface Step {
        void walk(BoundedDecoder in) throws IOException;
    }

    /** A step of a named schema that may refer to itself: filled in once the schema's walk is built. */
    private static final class Named implements Step {
        private Step step;

        @Override
        public void walk(BoundedDecoder in) throws IOException {
            step.walk(in);
        }
    }

    RowValidator(Schema schema) {
        this.root = step(schema, new IdentityHashMap<>());
    }

    /** Walks the value {@code in} holds; throws what reading it would (EOF, a bad length, branch or symbol). */
    void walk(BoundedDecoder in) throws IOException {
        root.walk(in);
    }

    private static Step step(Schema schema, Map<Schema, Named> building) {
        switch (schema.getType()) {
            case NULL:
                return in -> in.readNull();
            case BOOLEAN:
                return in -> in.readBoolean();
            case INT:
                return in -> in.readInt();
            case LONG:
                return in -> in.readLong();
            case FLOAT:
                return in -> in.readFloat();
            case DOUBLE:
                return in -> in.readDouble();
            case STRING:
                return BoundedDecoder::skipString;
            case BYTES:
                return BoundedDecoder::skipBytes;
            case FIXED: {
                int size = schema.getFixedSize();
                return in -> in.skipFixed(size);
            }
            case ENUM: {
                int symbols = schema.getEnumSymbols().size();
                String name = schema.getFullName();
                return in -> {
                    int index = in.readEnum();
                    if (index < 0 || index >= symbols) {
                        throw new AvroRuntimeException("enum " + name + " has no symbol " + index);
                    }
                };
            }
            case UNION: {
                List<Step> branches = new ArrayList<>();
                for (Schema branch : schema.getTypes()) {
                    branches.add(step(branch, building));
                }
                Step[] steps = branches.toArray(new Step[0]);
                return in -> {
                    int index = in.readIndex();
                    if (index < 0 || index >= steps.length) {
                        throw new AvroRuntimeException("union has no branch " + index);
                    }
                    steps[index].walk(in);
                };
            }
            case ARRAY: {
                Step item = step(schema.getElementType(), building);
                return in -> {
                    for (long n = in.readArrayStart(); n != 0; n = in.arrayNext()) {
                        for (long i = 0; i < n; i++) {
                            item.walk(in);
                        }
                    }
                };
            }
            case MAP: {
                Step value = step(schema.getValueType(), building);
                return in -> {
                    for (long n = in.readMapStart(); n != 0; n = in.mapNext()) {
                        for (long i = 0; i < n; i++) {
                            in.skipString();
                            value.walk(in);
                        }
                    }
                };
            }
            case RECORD: {
                Named named = building.get(schema);
                if (named != null) {
                    return named;
                }
                named = new Named();
                building.put(schema, named);
                List<Step> fields = new ArrayList<>();
                for (Schema.Field field : schema.getFields()) {
                    fields.add(step(field.schema(), building));
                }
                Step[] steps = fields.toArray(new Step[0]);
                named.step = in -> {
                    for (Step field : steps) {
                        field.walk(in);
                    }
                };
                return named;
            }
            default:
                throw new IllegalArgumentException("no walk for Avro type " + schema.getType());
        }
    }
}
