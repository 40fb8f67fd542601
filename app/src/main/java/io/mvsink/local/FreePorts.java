package io.mvsink.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/** Picks free TCP ports on 127.0.0.1 by binding port 0. */
final class FreePorts {

    private FreePorts() {
    }

    /**
     * Returns {@code count} distinct free ports. All sockets stay bound until every port is
     * picked, so one call never returns the same port twice. Another process may still take a
     * port before its user binds it; the window is short and a start then fails loudly.
     */
    static int[] pick(int count) {
        List<ServerSocket> sockets = new ArrayList<>(count);
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket();
                sockets.add(socket);
                socket.setReuseAddress(true);
                socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                ports[i] = socket.getLocalPort();
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
