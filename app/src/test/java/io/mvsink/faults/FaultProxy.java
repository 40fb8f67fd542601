package io.mvsink.faults;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * An HTTP/1.1 reverse proxy on 127.0.0.1 (an ephemeral port) in front of one target, that fails a
 * seeded share of the requests it is told to fail (by default every PUT). Raw sockets, so that it
 * can reset a connection; keep-alive on the client side, a fresh target connection per request
 * (so a forwarded request is sent exactly once). Bodies are relayed unchanged, framed by
 * {@code Content-Length} or chunked encoding both ways. Not supported: {@code Expect: 100-continue}
 * and protocol upgrades.
 *
 * <p>Each request that matches draws one number from a seeded {@link Random}: the shares of the
 * {@link Fault}s split [0, 1), the rest is forwarded untouched. Which request gets which draw
 * depends on arrival order, so a seed fixes the sequence of choices, not the requests they hit.
 */
public final class FaultProxy implements AutoCloseable {

    /** What the proxy does to one request instead of just forwarding it. */
    public enum Fault {
        /** Answers 500 without forwarding: certainly not done, though the client cannot know. */
        ERROR_500,
        /** Answers 503 without forwarding. */
        ERROR_503,
        /** Reads the request, never forwards nor answers it, and waits until the client gives up. */
        TIMEOUT,
        /** Forwards the request, reads the whole answer, then resets the client's connection: done, unseen. */
        RESET_AFTER_FORWARD
    }

    /** A request as the proxy saw it: method and request target (path and query). */
    public record Request(String method, String target) {
    }

    /** One request's fate: its fault (null if none) and the target's status (-1 if not forwarded). */
    public record Exchange(Request request, Fault fault, int status) {
    }

    private final String targetHost;
    private final int targetPort;
    private final Random random;
    private final Map<Fault, Double> shares = new EnumMap<>(Fault.class);
    private final Map<Fault, AtomicLong> injected = new EnumMap<>(Fault.class);
    private final AtomicLong forwarded = new AtomicLong();
    private final List<Exchange> exchanges = new ArrayList<>();
    private final Set<Socket> clients = ConcurrentHashMap.newKeySet();
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "fault-proxy");
        t.setDaemon(true);
        return t;
    });
    private volatile Predicate<Request> matching = r -> r.method().equals("PUT");
    private ServerSocket listener;
    private Future<?> acceptor;
    private volatile boolean down;
    private int port;
    private boolean closed;

    /** Starts a proxy to {@code targetHost:targetPort} that fails nothing until told to. */
    public FaultProxy(String targetHost, int targetPort, long seed) {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.random = new Random(seed);
        for (Fault f : Fault.values()) {
            injected.put(f, new AtomicLong());
        }
        listen();
    }

    /** Fails this share (0..1) of the matching requests with {@code fault}; the shares may add up to at most 1. */
    public synchronized FaultProxy fail(Fault fault, double share) {
        double others = shares.entrySet().stream().filter(e -> e.getKey() != fault).mapToDouble(Map.Entry::getValue).sum();
        if (share < 0 || others + share > 1) {
            throw new IllegalArgumentException("fault shares must be in [0, 1] and add up to at most 1: " + fault + "=" + share);
        }
        shares.put(fault, share);
        return this;
    }

    /** Which requests may be failed (default: PUT requests). */
    public FaultProxy matching(Predicate<Request> predicate) {
        this.matching = predicate;
        return this;
    }

    /**
     * Takes the proxy down (the port refuses connections and every open connection is reset) or
     * brings it back up on the same port.
     */
    public synchronized void down(boolean down) {
        if (closed || down == this.down) {
            return;
        }
        this.down = down;
        if (down) {
            stopListening();
            clients.forEach(FaultProxy::reset);
        } else {
            listen();
        }
    }

    public int port() {
        return port;
    }

    /** How many requests got {@code fault}. */
    public long injected(Fault fault) {
        return injected.get(fault).get();
    }

    /** How many requests were sent to the target (including those reset after forwarding). */
    public long forwarded() {
        return forwarded.get();
    }

    /** Every request so far, in the order recorded (a forwarded one when the target has answered). */
    public List<Exchange> exchanges() {
        synchronized (exchanges) {
            return List.copyOf(exchanges);
        }
    }

    /** One line: the count per fault and the count forwarded. */
    public String summary() {
        return injected.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue().get())
            .collect(Collectors.joining(", ", "faults injected: ", ", forwarded=" + forwarded.get()));
    }

    @Override
    public synchronized void close() {
        closed = true;
        closeQuietly(listener);
        listener = null;
        clients.forEach(FaultProxy::closeQuietly);
        threads.shutdownNow();
    }

    /**
     * Closes the listener and waits for its accept thread: a listening socket closed while a thread
     * is blocked in accept() is really closed only when that thread leaves it, and until then a
     * connection would be queued (and reset) rather than refused.
     */
    private void stopListening() {
        closeQuietly(listener);
        listener = null;
        try {
            acceptor.get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("fault proxy: the accept thread did not stop", e);
        }
    }

    private synchronized void listen() {
        try {
            ServerSocket server = new ServerSocket();
            server.setReuseAddress(true);
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            port = server.getLocalPort();
            listener = server;
            acceptor = threads.submit(() -> accept(server));
        } catch (IOException e) {
            throw new UncheckedIOException("fault proxy cannot listen on port " + port, e);
        }
    }

    private void accept(ServerSocket server) {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                clients.add(client);
                threads.execute(() -> serve(client));
            } catch (IOException | RejectedExecutionException e) {
                // the listener was closed (down or close)
            }
        }
    }

    /** Serves the requests of one client connection in turn until it closes or is reset. */
    private void serve(Socket client) {
        try (client) {
            InputStream in = new BufferedInputStream(client.getInputStream());
            OutputStream out = new BufferedOutputStream(client.getOutputStream());
            boolean open = true;
            while (open) {
                HttpMessage request = HttpMessage.read(in, null);
                if (request == null) {
                    return;
                }
                if (down) {
                    reset(client);
                    return;
                }
                open = handle(request, client, in, out);
            }
        } catch (IOException e) {
            // the client or the target went away: the client sees its connection end
        } finally {
            clients.remove(client);
        }
    }

    /** Handles one request; returns whether the client connection stays open. */
    private boolean handle(HttpMessage request, Socket client, InputStream in, OutputStream out) throws IOException {
        Request r = request.request();
        Fault fault = pick(r);
        if (fault == null || fault == Fault.RESET_AFTER_FORWARD) {
            HttpMessage response = forward(request);
            record(r, fault, response.status());
            if (fault == Fault.RESET_AFTER_FORWARD) {
                reset(client);
                return false;
            }
            response.writeTo(out);
            return !request.closes() && !response.closes();
        }
        record(r, fault, -1);
        if (fault == Fault.TIMEOUT) {
            while (in.read() != -1) {
                // hold until the client gives up and closes
            }
            return false;
        }
        int status = fault == Fault.ERROR_500 ? 500 : 503;
        out.write(("HTTP/1.1 " + status + " Injected fault\r\nContent-Length: 0\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return !request.closes();
    }

    private Fault pick(Request request) {
        if (!matching.test(request)) {
            return null;
        }
        synchronized (this) {
            double draw = random.nextDouble();
            for (Fault f : Fault.values()) {
                draw -= shares.getOrDefault(f, 0.0);
                if (draw < 0) {
                    return f;
                }
            }
            return null;
        }
    }

    private HttpMessage forward(HttpMessage request) throws IOException {
        try (Socket target = new Socket(targetHost, targetPort)) {
            OutputStream out = new BufferedOutputStream(target.getOutputStream());
            request.writeTo(out);
            forwarded.incrementAndGet();
            HttpMessage response = HttpMessage.read(new BufferedInputStream(target.getInputStream()), request.request().method());
            if (response == null) {
                throw new IOException("target closed without answering " + request.request());
            }
            return response;
        }
    }

    private void record(Request request, Fault fault, int status) {
        if (fault != null) {
            injected.get(fault).incrementAndGet();
        }
        synchronized (exchanges) {
            exchanges.add(new Exchange(request, fault, status));
        }
    }

    /** Closes with SO_LINGER 0: the peer gets a reset, not an orderly end of stream. */
    private static void reset(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
        } catch (IOException e) {
            // already closed
        }
        closeQuietly(socket);
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            if (c != null) {
                c.close();
            }
        } catch (Exception e) {
            // nothing to do
        }
    }
}
