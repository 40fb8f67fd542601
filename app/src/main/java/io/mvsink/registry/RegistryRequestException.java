package io.mvsink.registry;

/** The registry refused the request (4xx other than not-found): fix the request or the configuration. */
public class RegistryRequestException extends RegistryException {
    private static final long serialVersionUID = 1L;

    private final int status;

    public RegistryRequestException(String message, int status) {
        super(message);
        this.status = status;
    }

    public int status() {
        return status;
    }
}
