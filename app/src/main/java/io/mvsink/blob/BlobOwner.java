package io.mvsink.blob;

/**
 * Who may reference a blob: the state of one shard, kept in one consensus topic of one Kafka
 * cluster. Every part mvsink writes carries {@link #value()} as its {@link BlobStore#OWNER_METADATA},
 * and the blob GC deletes only blobs of its own owner. The one place the owner is derived.
 *
 * <p>The cluster id is part of it because topic names are not unique across clusters: staging and
 * production, two regions or a DR pair run the same app (same {@code application.id}, same
 * topics) and may share one storage container and prefix; without the cluster each GC took the
 * other's live parts for its own garbage (issue 21). Owners written before that, the
 * {@link #legacy()} form, cannot be attributed to a cluster: the GC keeps them as unowned.
 *
 * @param clusterId the Kafka cluster's id ({@code Admin.describeCluster().clusterId()}, read once at start)
 * @param consensusTopic the shard's consensus topic
 * @param shard the shard's name
 */
public record BlobOwner(String clusterId, String consensusTopic, String shard) {

    /**
     * @throws IllegalArgumentException a part is empty, holds a '/' (the parts would not be told
     *     apart) or is not printable ASCII (blob metadata values must be ASCII)
     */
    public BlobOwner {
        require("Kafka cluster id", clusterId);
        require("consensus topic", consensusTopic);
        require("shard", shard);
    }

    /** The owner every part of the shard is written with: {@code <cluster id>/<consensus topic>/<shard>}. */
    public String value() {
        return clusterId + "/" + legacy();
    }

    /**
     * {@code <consensus topic>/<shard>}: the owner versions before issue 21 wrote, without the
     * cluster. Such a blob may be this shard's or the same app's on another cluster.
     */
    public String legacy() {
        return consensusTopic + "/" + shard;
    }

    private static void require(String what, String part) {
        if (part == null || part.isEmpty()) {
            throw new IllegalArgumentException("blob owner: empty " + what);
        }
        for (int i = 0; i < part.length(); i++) {
            char c = part.charAt(i);
            if (c <= ' ' || c > '~' || c == '/') {
                throw new IllegalArgumentException("blob owner: " + what + " '" + part
                    + "' must be printable ASCII without spaces or '/' (it is stored in blob metadata)");
            }
        }
    }
}
