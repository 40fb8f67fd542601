package io.mvsink.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mvsink.read.Change;
import io.mvsink.read.ResumeToken;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * A subscription as JSON lines: {@code {"row":…,"time":…,"diff":…}} per change (a snapshot's rows
 * at its as-of time, with their net counts), and {@code {"token":"<consensus topic>/<shard>/<seqno>:<upper>"}}
 * after the snapshot and after each seal, flushed with it (a token needs no JSON escaping). A reader that was killed drops the lines after
 * the last token line (an unfinished seal) and resumes with that token.
 */
final class JsonLines implements SubscribeCommand.Output {
    private final ObjectMapper json = new ObjectMapper();
    private final PrintStream out;

    JsonLines(PrintStream out) {
        this.out = out;
    }

    @Override
    public void snapshot(long asOf, List<Change> rows, ResumeToken token) {
        seal(rows, token);
    }

    @Override
    public void seal(List<Change> changes, ResumeToken token) {
        changes.forEach(c -> change(c.row(), c.time(), c.diff()));
        token(token);
    }

    private void change(String row, long time, long diff) {
        try {
            ObjectNode line = json.createObjectNode();
            line.set("row", json.readTree(row));
            line.put("time", time);
            line.put("diff", diff);
            out.println(json.writeValueAsString(line));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("cannot render row " + row, e);
        }
    }

    private void token(ResumeToken token) {
        out.println("{\"token\":\"" + token + "\"}");
        out.flush();
    }

    @Override
    public void close() {
        out.flush();
    }
}
