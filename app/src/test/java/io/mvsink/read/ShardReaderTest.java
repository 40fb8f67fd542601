package io.mvsink.read;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mvsink.blob.BlobUnavailableException;
import io.mvsink.blob.ForwardingBlobStore;
import io.mvsink.blob.InMemoryBlobStore;
import io.mvsink.produce.Workload;
import io.mvsink.registry.InMemorySchemaRegistry;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ShardReaderTest {

    @Test
    void shouldAskTheBlobStoreForABlobNoPartIsNamedWhenItConnects() {
        InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
        registry.register("orders-value", Workload.ROW_SCHEMA);
        ReadLog reads = new ReadLog(new InMemoryBlobStore());

        ShardReader.connect(reads, registry, "orders-value");

        assertEquals(Set.of(ShardReader.NO_PART), reads.keys());
    }

    @Test
    void shouldLeaveAnUnregisteredSubjectAndARefusingStoreForTheReadsToReport() {
        ReadLog reads = new ReadLog(new ForwardingBlobStore(new InMemoryBlobStore()) {
            @Override
            public byte[] get(String key) {
                throw new BlobUnavailableException("the store is down", null);
            }
        });

        // neither the subject nor the store answers as a read needs: opening goes on, the first read reports it
        ShardReader.connect(reads, new InMemorySchemaRegistry(), "orders-value");

        assertEquals(Set.of(ShardReader.NO_PART), reads.keys(), "the store was asked");
    }
}
