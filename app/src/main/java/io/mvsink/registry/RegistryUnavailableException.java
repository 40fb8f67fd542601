package io.mvsink.registry;

/** The registry could not be reached or failed (5xx): retriable. */
public class RegistryUnavailableException extends RegistryException {
    private static final long serialVersionUID = 1L;

    public RegistryUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
