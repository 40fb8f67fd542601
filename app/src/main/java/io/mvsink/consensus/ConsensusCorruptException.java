package io.mvsink.consensus;

/** The consensus topic contradicts itself (a gap, a broken chain, an inexact cover): fatal. */
public class ConsensusCorruptException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ConsensusCorruptException(String message) {
        super(message);
    }
}
