package io.mvsink.registry;

import org.apache.avro.Schema;

/** A registry that forwards every call to another: tests override the calls they watch or hold back. */
public class ForwardingRegistry implements SchemaRegistry {
    private final SchemaRegistry delegate;

    public ForwardingRegistry(SchemaRegistry delegate) {
        this.delegate = delegate;
    }

    @Override
    public int register(String subject, Schema schema) {
        return delegate.register(subject, schema);
    }

    @Override
    public Schema schemaById(int id) {
        return delegate.schemaById(id);
    }

    @Override
    public SubjectVersion latest(String subject) {
        return delegate.latest(subject);
    }

    @Override
    public boolean isVersionOf(String subject, int id) {
        return delegate.isVersionOf(subject, id);
    }

    @Override
    public void setCompatibility(String subject, String level) {
        delegate.setCompatibility(subject, level);
    }

    @Override
    public String compatibility(String subject) {
        return delegate.compatibility(subject);
    }
}
