package io.mvsink.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Picks free TCP ports on 127.0.0.1 by binding port 0. */
final class FreePorts {
    /** Ports this JVM handed out: the kernel hands a port closed a moment ago out again. */
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private FreePorts() {
    }

    /**
     * Returns {@code count} distinct free ports, none handed out before in this JVM: the stack's
     * components pick theirs one after the other and bind them seconds later (Apicurio takes several),
     * and the kernel, asked for port 0, gives a port closed a moment ago out again. All sockets stay
     * bound until every port is picked. Another process may still take a port before its user binds
     * it; the window is short and a start then fails loudly.
     */
    static int[] pick(int count) {
        List<ServerSocket> sockets = new ArrayList<>(count);
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; ) {
                ServerSocket socket = new ServerSocket();
                sockets.add(socket);
                socket.setReuseAddress(true);
                socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                // a port handed out before stays bound (so the kernel gives another) until the call ends
                if (HANDED_OUT.add(socket.getLocalPort())) {
                    ports[i++] = socket.getLocalPort();
                }
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("could not pick " + count + " free ports on 127.0.0.1", e);
        } finally {
            for (ServerSocket socket : sockets) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // closing a bound but unused socket; nothing to do
                }
            }
        }
    }

    static int pick() {
        return pick(1)[0];
    }
}
