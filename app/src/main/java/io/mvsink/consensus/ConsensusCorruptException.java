package io.mvsink.consensus;

/** The consensus topic contradicts itself (a gap, a broken chain, an inexact cover): fatal. */
public class ConsensusCorruptException extends RuntimeException {
    public ConsensusCorruptException(String message) {
        super(message);
    }
}
