package io.mvsink.blob;

import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.policy.HttpPipelineSyncPolicy;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts every PUT and DELETE the SDK hands to the HTTP client, and their payload bytes. It sits
 * in the pipeline (not in our code) so that it sees each request actually issued, retries and
 * container creation included; a request refused at connect is counted too.
 */
final class WriteCountingPolicy extends HttpPipelineSyncPolicy {
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();

    @Override
    protected void beforeSendingRequest(HttpPipelineCallContext context) {
        HttpRequest request = context.getHttpRequest();
        if (request.getHttpMethod() == HttpMethod.PUT || request.getHttpMethod() == HttpMethod.DELETE) {
            requests.incrementAndGet();
            String length = request.getHeaders().getValue(HttpHeaderName.CONTENT_LENGTH);
            if (length != null) {
                bytes.addAndGet(Long.parseLong(length));
            }
        }
    }

    long requests() {
        return requests.get();
    }

    long bytes() {
        return bytes.get();
    }
}
