package io.mvsink.consensus;

/**
 * An app or reader is pointed at a shard whose recorded shape it does not match (another blob
 * container or storage account, another partition count): fatal, before anything is written or
 * read; the message names both values and what to change.
 */
public final class ShardPlacementException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    ShardPlacementException(String message) {
        super(message);
    }
}
