package io.mvsink.registry;

/** Base of the registry room's unchecked exceptions. */
public class RegistryException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RegistryException(String message) {
        super(message);
    }

    public RegistryException(String message, Throwable cause) {
        super(message, cause);
    }
}
