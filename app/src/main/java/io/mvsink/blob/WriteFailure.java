package io.mvsink.blob;

import com.azure.storage.blob.models.BlobStorageException;
import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;

/** What a failed write request says about the blob, and so what to do next. */
enum WriteFailure {
    /** 409/412: a blob holds the key (maybe ours from an earlier attempt): compare its bytes. */
    KEY_TAKEN,
    /** A 4xx refusal (auth, bad request...): not written, and retrying will not help. */
    REFUSED,
    /** Never reached storage (connection refused, connect timeout): not written, retry. */
    NOT_SENT,
    /** 408, 429, 5xx, timeout, reset or anything unknown: may be written, retry. */
    AMBIGUOUS;

    /**
     * Classifies one failed write request by its cause chain: a storage answer decides by status;
     * else a failure to connect anywhere in the chain means the request never left; anything else
     * (timeouts, resets, I/O, unknown) may have reached storage.
     */
    static WriteFailure classify(Throwable failure) {
        for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof BlobStorageException e) {
                return classifyStatus(e.getStatusCode());
            }
        }
        for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof ConnectException || t instanceof HttpConnectTimeoutException) {
                return NOT_SENT;
            }
        }
        return AMBIGUOUS;
    }

    /** Classifies an HTTP answer to a conditional PUT. */
    static WriteFailure classifyStatus(int status) {
        if (status == 409 || status == 412) {
            return KEY_TAKEN;
        }
        if (status == 408 || status == 429 || status >= 500) {
            return AMBIGUOUS;
        }
        if (status >= 400) {
            return REFUSED;
        }
        return AMBIGUOUS;
    }

    /** Whether a read or delete that failed this way is worth retrying. */
    boolean retriable() {
        return this == NOT_SENT || this == AMBIGUOUS;
    }
}
