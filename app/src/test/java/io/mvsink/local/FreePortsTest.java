package io.mvsink.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class FreePortsTest {

    @Test
    void shouldPickDistinctPortsInOneCall() {
        int[] ports = FreePorts.pick(5);
        assertEquals(5, Arrays.stream(ports).distinct().count(), Arrays.toString(ports));
        assertTrue(Arrays.stream(ports).allMatch(p -> p > 0 && p < 65536), Arrays.toString(ports));
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
