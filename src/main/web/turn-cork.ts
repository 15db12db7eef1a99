import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';

/**
 * Holds what is sent to WebSocket clients during one turn of the event loop in each socket's
 * buffer (`cork`), and lets it go in one write per socket when the turn's JavaScript is done
 * (`process.nextTick`, which runs after the turn's promise jobs too). A planning reply publishes
 * dozens of events in one turn; without this each frame was its own `writev` system call per
 * client, the largest single cost of main at 100 plan updates a second (bench/README.md, "Issue
 * 24, fourth pass"). Order is kept: a socket's writes leave in the order they were made, and
 * nothing waits past the turn that sent it.
 */
export class TurnCork {
  private readonly corked = new Set<Duplex>();

  /** Call before sending to `client`: its socket holds what follows until the turn ends. */
  hold(client: WebSocket): void {
    // `ws` keeps its TCP socket in `_socket` and has no cork of its own; its frames are writes
    // to that socket, so corking it batches them (ws corks around each frame too: these nest).
    const socket = (client as unknown as { _socket?: Duplex })._socket;
    if (!socket || socket.destroyed || this.corked.has(socket)) return;
    socket.cork();
    this.corked.add(socket);
    if (this.corked.size === 1) process.nextTick(() => this.release());
  }

  /** Lets everything held go (once per turn; also when the gateway is disposed). */
  release(): void {
    for (const socket of this.corked) socket.uncork();
    this.corked.clear();
  }
}
