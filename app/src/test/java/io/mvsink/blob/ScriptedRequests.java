package io.mvsink.blob;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A storage account in a map whose uploads follow a script: each scripted step fails the next
 * upload (after storing the blob, if the step says the write landed); unscripted uploads behave
 * like storage with {@code If-None-Match: *}.
 */
final class ScriptedRequests implements BlobRequests {
    private record Step(RuntimeException failure, boolean landed) {
    }

    final Map<String, byte[]> blobs = new HashMap<>();
    private final Deque<Step> script = new ArrayDeque<>();
    int uploads;
    int downloads;

    /** The next upload fails with {@code failure}; with {@code landed} the blob is stored anyway. */
    ScriptedRequests thenFail(RuntimeException failure, boolean landed) {
        script.add(new Step(failure, landed));
        return this;
    }

    /** The next {@code n} uploads fail with {@code failure}, storing nothing. */
    ScriptedRequests thenFail(int n, RuntimeException failure) {
        for (int i = 0; i < n; i++) {
            thenFail(failure, false);
        }
        return this;
    }

    @Override
    public void uploadIfNoneMatch(String key, byte[] data, String owner) {
        uploads++;
        Step step = script.poll();
        if (step != null) {
            if (step.landed()) {
                blobs.putIfAbsent(key, data.clone());
            }
            throw step.failure();
        }
        if (blobs.containsKey(key)) {
            throw StorageErrors.status(409, "BlobAlreadyExists");
        }
        blobs.put(key, data.clone());
    }

    @Override
    public Optional<byte[]> download(String key) {
        downloads++;
        return Optional.ofNullable(blobs.get(key)).map(byte[]::clone);
    }
}
