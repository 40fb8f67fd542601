package io.mvsink.faults;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One HTTP/1.1 message as {@link FaultProxy} relays it: the start line and headers it reads to
 * decide, and the raw bytes (head and framed body) it passes on unchanged.
 */
final class HttpMessage {
    private final String startLine;
    private final List<String> headers;
    private final byte[] raw;
    private final boolean closeDelimited;

    private HttpMessage(String startLine, List<String> headers, byte[] raw, boolean closeDelimited) {
        this.startLine = startLine;
        this.headers = headers;
        this.raw = raw;
        this.closeDelimited = closeDelimited;
    }

    /**
     * Reads one message, body included; {@code requestMethod} is null when reading a request, else
     * the method of the request this response answers. Returns null at end of stream before the
     * first byte.
     */
    static HttpMessage read(InputStream in, String requestMethod) throws IOException {
        RawBytes raw = new RawBytes();
        String start = raw.line(in);
        if (start == null) {
            return null;
        }
        List<String> headers = new ArrayList<>();
        for (String h = raw.requiredLine(in); !h.isEmpty(); h = raw.requiredLine(in)) {
            headers.add(h);
        }
        String length = header(headers, "Content-Length");
        boolean closeDelimited = false;
        if (header(headers, "Transfer-Encoding").toLowerCase().contains("chunked")) {
            raw.chunkedBody(in);
        } else if (!length.isEmpty()) {
            raw.copy(in, Long.parseLong(length));
        } else if (requestMethod != null && responseHasBody(requestMethod, status(start))) {
            in.transferTo(raw);
            closeDelimited = true;
        }
        return new HttpMessage(start, headers, raw.toByteArray(), closeDelimited);
    }

    FaultProxy.Request request() {
        String[] parts = startLine.split(" ", 3);
        return new FaultProxy.Request(parts[0], parts.length > 1 ? parts[1] : "");
    }

    int status() {
        return status(startLine);
    }

    /** Whether the connection ends after this message. */
    boolean closes() {
        return closeDelimited || header(headers, "Connection").equalsIgnoreCase("close");
    }

    void writeTo(OutputStream out) throws IOException {
        out.write(raw);
        out.flush();
    }

    private static int status(String statusLine) {
        return Integer.parseInt(statusLine.split(" ", 3)[1]);
    }

    private static boolean responseHasBody(String requestMethod, int status) {
        return !requestMethod.equals("HEAD") && status >= 200 && status != 204 && status != 304;
    }

    private static String header(List<String> headers, String name) {
        for (String h : headers) {
            int colon = h.indexOf(':');
            if (colon > 0 && h.substring(0, colon).trim().equalsIgnoreCase(name)) {
                return h.substring(colon + 1).trim();
            }
        }
        return "";
    }

    /** The bytes of one message as they are read. */
    private static final class RawBytes extends ByteArrayOutputStream {

        /** One line without its line end; null at end of stream before any byte. */
        String line(InputStream in) throws IOException {
            int from = count;
            for (int b = in.read(); b != '\n'; b = in.read()) {
                if (b == -1) {
                    if (count == from) {
                        return null;
                    }
                    throw new IOException("end of stream inside a line");
                }
                write(b);
            }
            int end = count;
            write('\n');
            if (end > from && buf[end - 1] == '\r') {
                end--;
            }
            return new String(buf, from, end - from, StandardCharsets.ISO_8859_1);
        }

        String requiredLine(InputStream in) throws IOException {
            String line = line(in);
            if (line == null) {
                throw new IOException("end of stream inside a message head");
            }
            return line;
        }

        void copy(InputStream in, long length) throws IOException {
            byte[] chunk = new byte[8192];
            for (long left = length; left > 0; ) {
                int n = in.read(chunk, 0, (int) Math.min(chunk.length, left));
                if (n == -1) {
                    throw new IOException("end of stream inside a body");
                }
                write(chunk, 0, n);
                left -= n;
            }
        }

        /** Chunks until the last one (size 0), then trailer fields until the empty line. */
        void chunkedBody(InputStream in) throws IOException {
            for (long size = chunkSize(requiredLine(in)); size > 0; size = chunkSize(requiredLine(in))) {
                copy(in, size);
                if (!requiredLine(in).isEmpty()) {
                    throw new IOException("chunk not followed by CRLF");
                }
            }
            while (!requiredLine(in).isEmpty()) {
                // a trailer field: relayed as it is
            }
        }

        private static long chunkSize(String line) {
            int extension = line.indexOf(';');
            return Long.parseLong((extension < 0 ? line : line.substring(0, extension)).trim(), 16);
        }
    }
}
