package io.mvsink.registry;

/** The registry answered that the schema id or subject does not exist: the input is bad. */
public class UnknownSchemaException extends RegistryException {
    private static final long serialVersionUID = 1L;

    public UnknownSchemaException(String message) {
        super(message);
    }
}
