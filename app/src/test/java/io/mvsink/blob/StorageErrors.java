package io.mvsink.blob;

import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpHeaders;
import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.storage.blob.models.BlobStorageException;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** SDK exceptions as the storage service would cause them, without a server. */
final class StorageErrors {
    private StorageErrors() {
    }

    /** The exception the SDK throws for an answer with {@code status} and {@code x-ms-error-code}. */
    static BlobStorageException status(int status, String errorCode) {
        HttpHeaders headers = new HttpHeaders().set(HttpHeaderName.fromString("x-ms-error-code"), errorCode);
        HttpRequest request = new HttpRequest(HttpMethod.PUT, "http://127.0.0.1:1/acct/c/key");
        HttpResponse response = new HttpResponse(request) {
            @Override
            public int getStatusCode() {
                return status;
            }

            @Override
            @Deprecated
            public String getHeaderValue(String name) {
                return headers.getValue(name);
            }

            @Override
            public HttpHeaders getHeaders() {
                return headers;
            }

            @Override
            public Flux<ByteBuffer> getBody() {
                return Flux.empty();
            }

            @Override
            public Mono<byte[]> getBodyAsByteArray() {
                return Mono.empty();
            }

            @Override
            public Mono<String> getBodyAsString() {
                return Mono.empty();
            }

            @Override
            public Mono<String> getBodyAsString(Charset charset) {
                return Mono.empty();
            }
        };
        return new BlobStorageException("Status code " + status + ", " + errorCode, response, null);
    }
}
