import { type WsClientFrame, type WsServerFrame, wsServerFrameSchema } from '@keel/contracts';

/**
 * The one push connection of the app (`/ws`, frames in packages/contracts/src/ws/market.events.ts).
 *
 * - Channels are reference counted: the first subscriber of a channel subscribes it on the server,
 *   the last one to leave unsubscribes it; with no channel left the socket closes after a short
 *   linger (so a tab change does not reconnect).
 * - A dropped connection comes back with capped exponential backoff and jitter; a heartbeat (ping
 *   every `heartbeatMs`, closed when no frame answers within `pongTimeoutMs`) finds connections that
 *   died without a close.
 * - Resume: the client remembers the last tick id it saw and re-subscribes with
 *   `sinceTickId`, so the server replays what was missed. When the server says the replay was
 *   truncated, or when there is nothing to resume from, each channel's `onResync` runs so the
 *   screen refetches over HTTP.
 *
 * Everything it needs from the outside (socket, timers, randomness) is injected, so the unit test
 * drives it with a fake socket and fake timers.
 */

/** The part of the browser's WebSocket this client uses. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
}

const OPEN = 1;

export type ConnectionStatus = 'idle' | 'connecting' | 'open' | 'reconnecting';

export interface ChannelHandlers {
  /** Every frame of the channel (ticks for `ticks`, candles for `candles:<symbol>:<interval>`). */
  onFrame?: (frame: WsServerFrame) => void;
  /** Frames were missed and cannot be replayed: refetch the channel's data over HTTP. */
  onResync?: () => void;
}

export interface RealtimeOptions {
  url: () => string;
  createSocket: (url: string) => SocketLike;
  /** Randomness for the jitter, in [0, 1). */
  random?: () => number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  heartbeatMs?: number;
  pongTimeoutMs?: number;
  /** How long the socket stays open with no channel, in case one is subscribed again at once. */
  lingerMs?: number;
}

type Timer = ReturnType<typeof setTimeout>;

export class RealtimeConnection {
  private readonly options: Required<RealtimeOptions>;
  private socket: SocketLike | null = null;
  private readonly channels = new Map<string, Set<ChannelHandlers>>();
  private lastTickIdValue: bigint | null = null;
  private attempt = 0;
  private everOpened = false;
  private statusValue: ConnectionStatus = 'idle';
  private readonly statusListeners = new Set<(status: ConnectionStatus) => void>();
  private reconnectTimer: Timer | null = null;
  private heartbeatTimer: Timer | null = null;
  private pongTimer: Timer | null = null;
  private lingerTimer: Timer | null = null;

  constructor(options: RealtimeOptions) {
    this.options = {
      random: Math.random,
      backoffBaseMs: 500,
      backoffMaxMs: 30_000,
      heartbeatMs: 25_000,
      pongTimeoutMs: 10_000,
      lingerMs: 5_000,
      ...options,
    };
  }

  /** Joins `channel`; the returned function leaves it. */
  subscribe(channel: string, handlers: ChannelHandlers): () => void {
    let set = this.channels.get(channel);
    const isNew = set === undefined;
    if (!set) {
      set = new Set();
      this.channels.set(channel, set);
    }
    set.add(handlers);
    this.cancel('lingerTimer');
    if (this.socket === null && this.reconnectTimer === null) this.connect();
    else if (isNew && this.isOpen()) this.send({ op: 'subscribe', channels: [channel] });

    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.leave(channel, handlers);
    };
  }

  /** The highest tick id seen, as the decimal string the server sent. */
  lastTickId(): string | null {
    return this.lastTickIdValue === null ? null : this.lastTickIdValue.toString();
  }

  status(): ConnectionStatus {
    return this.statusValue;
  }

  onStatus(listener: (status: ConnectionStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => {
      this.statusListeners.delete(listener);
    };
  }

  /** Reconnects now instead of waiting out the backoff (e.g. when the device comes back online). */
  retryNow(): void {
    if (this.reconnectTimer === null || this.channels.size === 0) return;
    this.cancel('reconnectTimer');
    this.connect();
  }

  /** Closes the socket and forgets every channel (tests, logout). */
  dispose(): void {
    this.channels.clear();
    this.closeSocket();
    this.cancel('reconnectTimer');
    this.forgetSession();
  }

  /**
   * A deliberate close ends the session: the next subscriber starts from its own HTTP snapshot,
   * so there is nothing to resume and no replay to ask for.
   */
  private forgetSession() {
    this.everOpened = false;
    this.lastTickIdValue = null;
    this.attempt = 0;
    this.setStatus('idle');
  }

  private leave(channel: string, handlers: ChannelHandlers) {
    const set = this.channels.get(channel);
    if (!set?.delete(handlers) || set.size > 0) return;
    this.channels.delete(channel);
    if (this.isOpen()) this.send({ op: 'unsubscribe', channels: [channel] });
    if (this.channels.size > 0) return;
    // Nothing left to listen to: stop reconnecting, and close after the linger.
    this.cancel('reconnectTimer');
    if (this.socket === null) {
      this.forgetSession();
      return;
    }
    this.lingerTimer = setTimeout(() => {
      this.lingerTimer = null;
      this.closeSocket();
      this.forgetSession();
    }, this.options.lingerMs);
  }

  private isOpen(): boolean {
    return this.socket !== null && this.socket.readyState === OPEN && this.statusValue === 'open';
  }

  private connect() {
    this.setStatus(this.everOpened ? 'reconnecting' : 'connecting');
    let socket: SocketLike;
    try {
      socket = this.options.createSocket(this.options.url());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      if (this.socket !== socket) return;
      const resumed = this.everOpened;
      this.everOpened = true;
      this.setStatus('open');
      this.startHeartbeat();
      const channels = [...this.channels.keys()];
      if (channels.length === 0) return;
      const sinceTickId = this.lastTickId();
      this.send(sinceTickId !== null && resumed ? { op: 'subscribe', channels, sinceTickId } : { op: 'subscribe', channels });
      // Candles are not replayed, and without a tick id nothing can be: what was missed while the
      // connection was down has to come over HTTP.
      if (resumed) {
        for (const channel of channels) if (channel !== 'ticks' || sinceTickId === null) this.resync(channel);
      }
    };
    socket.onmessage = (event) => {
      if (this.socket !== socket) return;
      this.receive(event.data);
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.dropSocket();
    };
    socket.onerror = () => {
      // A close follows every error; the close handler reconnects.
    };
  }

  private receive(data: unknown) {
    if (typeof data !== 'string') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      return;
    }
    const result = wsServerFrameSchema.safeParse(parsed);
    if (!result.success) return;
    const frame = result.data;
    // Any frame proves the connection alive and healthy: the backoff starts over.
    this.attempt = 0;
    this.cancel('pongTimer');
    switch (frame.type) {
      case 'tick': {
        const id = BigInt(frame.tick.tickId);
        // A replay may overlap what was already seen: each tick is delivered once.
        if (this.lastTickIdValue !== null && id <= this.lastTickIdValue) return;
        this.lastTickIdValue = id;
        this.dispatch('ticks', frame);
        return;
      }
      case 'candle':
        this.dispatch(`candles:${frame.symbol}:${frame.interval}`, frame);
        return;
      case 'subscribed':
        if (frame.replayTruncated) for (const channel of frame.channels) this.resync(channel);
        for (const channel of frame.channels) this.dispatch(channel, frame);
        return;
      default:
        return;
    }
  }

  private dispatch(channel: string, frame: WsServerFrame) {
    for (const handlers of [...(this.channels.get(channel) ?? [])]) handlers.onFrame?.(frame);
  }

  private resync(channel: string) {
    for (const handlers of [...(this.channels.get(channel) ?? [])]) handlers.onResync?.();
  }

  private send(frame: WsClientFrame) {
    if (this.socket?.readyState !== OPEN) return;
    try {
      this.socket.send(JSON.stringify(frame));
    } catch {
      // A socket that cannot send is closing; its close handler reconnects.
    }
  }

  private startHeartbeat() {
    this.cancel('heartbeatTimer');
    this.heartbeatTimer = setTimeout(() => {
      this.heartbeatTimer = null;
      this.send({ op: 'ping' });
      this.cancel('pongTimer');
      this.pongTimer = setTimeout(() => {
        this.pongTimer = null;
        // Nothing came back: the connection is dead even if no close arrived.
        this.dropSocket();
      }, this.options.pongTimeoutMs);
      this.startHeartbeat();
    }, this.options.heartbeatMs);
  }

  /** The socket is gone (closed, failed or silent): reconnect if anyone still listens. */
  private dropSocket() {
    this.closeSocket();
    if (this.channels.size === 0) {
      this.setStatus('idle');
      return;
    }
    this.scheduleReconnect();
  }

  private closeSocket() {
    const socket = this.socket;
    this.socket = null;
    this.cancel('heartbeatTimer');
    this.cancel('pongTimer');
    this.cancel('lingerTimer');
    if (!socket) return;
    socket.onopen = null;
    socket.onmessage = null;
    socket.onclose = null;
    socket.onerror = null;
    try {
      socket.close();
    } catch {
      // Closing a socket that never opened may throw in some browsers; it is gone either way.
    }
  }

  /** Waits before the next attempt: capped exponential, with half of it random ("equal jitter"). */
  private scheduleReconnect() {
    this.setStatus('reconnecting');
    const ceilingMs = Math.min(this.options.backoffMaxMs, this.options.backoffBaseMs * 2 ** this.attempt);
    const delayMs = ceilingMs / 2 + this.options.random() * (ceilingMs / 2);
    this.attempt = Math.min(this.attempt + 1, 30);
    this.cancel('reconnectTimer');
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.channels.size > 0) this.connect();
      else this.setStatus('idle');
    }, delayMs);
  }

  private cancel(name: 'reconnectTimer' | 'heartbeatTimer' | 'pongTimer' | 'lingerTimer') {
    const timer = this[name];
    if (timer !== null) clearTimeout(timer);
    this[name] = null;
  }

  private setStatus(status: ConnectionStatus) {
    if (this.statusValue === status) return;
    this.statusValue = status;
    for (const listener of [...this.statusListeners]) listener(status);
  }
}

/** `/ws` on the page's own host, `wss:` under https. */
export function defaultSocketUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
}
