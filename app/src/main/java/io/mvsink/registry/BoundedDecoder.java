package io.mvsink.registry;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.Decoder;
import org.apache.avro.util.Utf8;

/**
 * A binary decoder over one payload that refuses string, bytes and collection lengths larger
 * than the payload itself. Plain Avro allocates whatever length a corrupt value declares (up
 * to 2 GiB), so one bad record could take the JVM down; here it is just undecodable.
 * (A legal array or map of more zero-size items than the payload has bytes is refused too.)
 */
final class BoundedDecoder extends Decoder {
    private final BinaryDecoder in;
    private final long limit;

    BoundedDecoder(BinaryDecoder in, long limit) {
        this.in = in;
        this.limit = limit;
    }

    boolean isEnd() throws IOException {
        return in.isEnd();
    }

    private int length(String what) throws IOException {
        return (int) checked(in.readLong(), what);
    }

    private long checked(long n, String what) {
        if (n < 0 || n > limit) {
            throw new AvroRuntimeException(what + " of " + n + " declared in a payload of " + limit + " bytes");
        }
        return n;
    }

    @Override
    public Utf8 readString(Utf8 old) throws IOException {
        byte[] bytes = new byte[length("string length")];
        in.readFixed(bytes);
        return new Utf8(bytes);
    }

    @Override
    public String readString() throws IOException {
        return readString(null).toString();
    }

    @Override
    public ByteBuffer readBytes(ByteBuffer old) throws IOException {
        byte[] bytes = new byte[length("bytes length")];
        in.readFixed(bytes);
        return ByteBuffer.wrap(bytes);
    }

    @Override
    public long readArrayStart() throws IOException {
        return checked(in.readArrayStart(), "array block count");
    }

    @Override
    public long arrayNext() throws IOException {
        return checked(in.arrayNext(), "array block count");
    }

    @Override
    public long readMapStart() throws IOException {
        return checked(in.readMapStart(), "map block count");
    }

    @Override
    public long mapNext() throws IOException {
        return checked(in.mapNext(), "map block count");
    }

    @Override
    public void skipString() throws IOException {
        in.skipFixed(length("string length"));
    }

    @Override
    public void skipBytes() throws IOException {
        in.skipFixed(length("bytes length"));
    }

    @Override
    public long skipArray() throws IOException {
        return in.skipArray();
    }

    @Override
    public long skipMap() throws IOException {
        return in.skipMap();
    }

    @Override
    public void readNull() throws IOException {
        in.readNull();
    }

    @Override
    public boolean readBoolean() throws IOException {
        return in.readBoolean();
    }

    @Override
    public int readInt() throws IOException {
        return in.readInt();
    }

    @Override
    public long readLong() throws IOException {
        return in.readLong();
    }

    @Override
    public float readFloat() throws IOException {
        return in.readFloat();
    }

    @Override
    public double readDouble() throws IOException {
        return in.readDouble();
    }

    @Override
    public void readFixed(byte[] bytes, int start, int length) throws IOException {
        in.readFixed(bytes, start, length);
    }

    @Override
    public void skipFixed(int length) throws IOException {
        in.skipFixed(length);
    }

    @Override
    public int readEnum() throws IOException {
        return in.readEnum();
    }

    @Override
    public int readIndex() throws IOException {
        return in.readIndex();
    }
}
