package io.mvsink.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FreePortsTest {

    @Test
    void shouldPickDistinctPortsInOneCall() {
        int[] ports = FreePorts.pick(5);
        assertEquals(5, Arrays.stream(ports).distinct().count(), Arrays.toString(ports));
        assertTrue(Arrays.stream(ports).allMatch(p -> p > 0 && p < 65536), Arrays.toString(ports));
    }

    /**
     * The stack's components pick their ports one after the other and bind them seconds later
     * (Apicurio takes about 8 s to start): a port handed out once must not be handed out again, or
     * two components get the same one and the later fails to bind (a catch-up bench run on
     * 2026-12-07: Apicurio and the broker both given 127.0.0.1:40399, "Address already in use").
     */
    @Test
    void shouldNeverHandOutAPortTwiceInOneJvm() {
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 1_000; i++) {
            int port = FreePorts.pick();
            assertTrue(seen.add(port), "port " + port + " handed out again after " + i + " picks");
        }
    }

    @Test
    void shouldPickAPortThatCanBeBoundOnLoopback() throws Exception {
        int port = FreePorts.pick();
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            assertEquals(port, socket.getLocalPort());
        }
    }
}
