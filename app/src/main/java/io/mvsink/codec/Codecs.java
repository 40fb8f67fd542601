package io.mvsink.codec;

import io.mvsink.avro.AppenderState;
import io.mvsink.avro.Batch;
import io.mvsink.avro.BatchReport;
import io.mvsink.avro.GraceRecord;
import io.mvsink.avro.StateDiff;
import io.mvsink.avro.StateRollup;
import io.mvsink.avro.TaskProgress;

/** One codec per stored message type; codecs are immutable and thread-safe. */
public final class Codecs {
    public static final SpecificCodec<BatchReport> REPORT = SpecificCodec.framed(BatchReport.class);
    public static final SpecificCodec<Batch> BATCH = SpecificCodec.framed(Batch.class);
    public static final SpecificCodec<StateDiff> STATE_DIFF = SpecificCodec.framed(StateDiff.class);
    public static final SpecificCodec<StateRollup> STATE_ROLLUP = SpecificCodec.framed(StateRollup.class);
    public static final SpecificCodec<AppenderState> APPENDER_STATE = SpecificCodec.of(AppenderState.class);
    public static final SpecificCodec<GraceRecord> GRACE = SpecificCodec.of(GraceRecord.class);
    public static final SpecificCodec<TaskProgress> TASK_PROGRESS = SpecificCodec.of(TaskProgress.class);

    private Codecs() {
    }
}
