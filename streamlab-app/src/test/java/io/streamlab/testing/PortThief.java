package io.streamlab.testing;

import io.streamlab.process.Ports;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A {@link Ports.Source} that hands out real free ports but itself listens on the ones it hands
 * out at the given positions (1 = the first): the port a server was given is taken before the
 * server binds it, as another program may do between the two. Closing it frees them.
 */
public final class PortThief implements Ports.Source, AutoCloseable {
  private final Set<Integer> positions;
  private final List<ServerSocket> taken = new ArrayList<>();
  private int handedOut;

  public PortThief(Integer... positions) {
    this.positions = Set.of(positions);
  }

  @Override
  public synchronized int next() throws IOException {
    int port = Ports.freeLoopbackPort();
    if (positions.contains(++handedOut)) taken.add(new ServerSocket(port, 50, InetAddress.getLoopbackAddress()));
    return port;
  }

  /** The ports taken so far, in the order they were handed out. */
  public synchronized List<Integer> taken() {
    return taken.stream().map(ServerSocket::getLocalPort).toList();
  }

  @Override
  public synchronized void close() throws IOException {
    for (ServerSocket s : taken) s.close();
  }
}
