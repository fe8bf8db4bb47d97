import { type WsServerFrame, wsServerFrameSchema } from '@keel/contracts';
import WebSocket from 'ws';

/**
 * A /ws client for tests (the `ws` package): keeps every frame, each checked against the
 * contract's server frame schema, and lets a test wait for the frames it expects.
 */
export class TestWsClient {
  readonly frames: WsServerFrame[] = [];
  readonly socket: WebSocket;
  /** Set when the connection has closed. */
  closed: { code: number; reason: string } | undefined;
  private readonly waiters = new Set<() => void>();

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.on('message', (data) => {
      this.frames.push(wsServerFrameSchema.parse(JSON.parse(data.toString())));
      this.wake();
    });
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
    socket.on('error', () => {});
  }

  static async connect(baseUrl: string, options: WebSocket.ClientOptions = {}): Promise<TestWsClient> {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws`, options);
    const client = new TestWsClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return client;
  }

  send(frame: unknown): void {
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** Frames of one type, in arrival order. */
  ofType<T extends WsServerFrame['type']>(type: T): Extract<WsServerFrame, { type: T }>[] {
    return this.frames.filter((frame): frame is Extract<WsServerFrame, { type: T }> => frame.type === type);
  }

  /** Waits until `check` returns something other than undefined/false, or fails after `timeoutMs`. */
  async until<T>(check: () => T | undefined | false, timeoutMs = 10_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const result = check();
      if (result !== undefined && result !== false) return result;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting; last frames: ${JSON.stringify(this.frames.slice(-3))}; closed: ${JSON.stringify(this.closed)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.min(left, 200));
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.waiters.add(done);
      });
    }
  }

  /** Waits for the connection to close and returns the code. */
  async closeCode(timeoutMs = 10_000): Promise<number> {
    return (await this.until(() => this.closed, timeoutMs)).code;
  }

  close(): void {
    this.socket.close();
  }

  private wake() {
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const waiter of waiters) waiter();
  }
}
