import { errorCatalogue, type UserEvent, type WsClientFrame, type WsServerFrame } from '@keel/contracts';

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
 *   `sinceTickId`, so the server replays what was missed. Before any tick was pushed, a screen's
 *   HTTP snapshot says which tick it was as of (`noteTickSnapshot`), and the first subscription of
 *   `ticks` asks for what was recorded after it: a tick recorded between the snapshot and the
 *   subscription is not lost. When the server says the replay was
 *   truncated, or when there is nothing to resume from, each channel's `onResync` runs so the
 *   screen refetches over HTTP.
 * - The user's own events (contracts `ws/user.events.ts`): while a session token exists, every
 *   (re)connect sends `auth` before the channel subscriptions. `onUserEvent` listeners are reference
 *   counted like channels (the socket stays open while one listens and there is a token), get every
 *   `event` frame, and get `onResync` after every `authed`: events are not replayed, so they refetch.
 *   A refused token (401, or "user status incorrect") is not sent again until the token changes; the
 *   HTTP client's session rules, not this connection, end the session. When the server ends the
 *   user stream of an authenticated socket (`unauthed`: the session was ended or expired, or the
 *   user suspended), the token counts as refused and `onSessionEnded` hands the answer to those
 *   rules, as an HTTP call with the token would.
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

/**
 * Why user-event listeners should refetch, after an `authed`:
 * - `start`: the listener had not followed events before; only data loaded before events began to
 *   flow (`eventsSinceMs`) can have missed one. Also said to a listener that joins an already
 *   authenticated connection: the data it stands for may have been loaded before `authed` (a route
 *   loader's prefetch starts before the screen, and the listener, are mounted).
 * - `gap`: the listener was already following events and the connection lost them (a reconnect, or
 *   a new session): anything may have been missed.
 */
export type ResyncReason = 'start' | 'gap';

export interface UserEventHandlers {
  /** An event for the authenticated user: a nudge to refetch over HTTP. */
  onEvent?: (event: UserEvent) => void;
  /**
   * The connection (re)authenticated and events may have been missed: refetch over HTTP.
   * `eventsSinceMs` is when the current socket's `authed` arrived (the device's clock): every event
   * from then on reaches the listener.
   */
  onResync?: (reason: ResyncReason, eventsSinceMs: number) => void;
}

/** Reads a received frame (JSON already parsed): the frame, or null when it is not one of the contract's. */
export type FrameReader = (value: unknown) => WsServerFrame | null;

/** Where this connection stands with the user's events. */
export type AuthState = 'none' | 'pending' | 'authed' | 'refused';

export interface RealtimeOptions {
  url: () => string;
  /** How received frames are checked against the contract (frame-reader.ts). Or: */
  readFrame?: FrameReader;
  /**
   * Loads the reader on the first connection instead: it needs zod, and the screens that open the
   * socket paint before zod has arrived (ADR 0025, fourth pass). No socket opens before the reader
   * is there; when it cannot be loaded, the connection tries again as after a dropped socket.
   */
  loadFrameReader?: () => Promise<FrameReader>;
  /** The session token to authenticate with, or null without a session. */
  token?: () => string | null;
  createSocket: (url: string) => SocketLike;
  /** Randomness for the jitter, in [0, 1). */
  random?: () => number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  heartbeatMs?: number;
  pongTimeoutMs?: number;
  /** How long the socket stays open with no channel, in case one is subscribed again at once. */
  lingerMs?: number;
  /**
   * The server ended the session the device still holds (an `unauthed` frame): `code` and `msg`
   * are the catalogue error an HTTP call with the token gets now.
   */
  onSessionEnded?: (code: number, msg: string) => void;
}

type Timer = ReturnType<typeof setTimeout>;

export class RealtimeConnection {
  private readonly options: Required<Omit<RealtimeOptions, 'readFrame' | 'loadFrameReader'>>;
  private readFrame: FrameReader | null;
  private readonly loadFrameReader: (() => Promise<FrameReader>) | null;
  /** Whether `loadFrameReader` is under way. */
  private readerLoading = false;
  private socket: SocketLike | null = null;
  private readonly channels = new Map<string, Set<ChannelHandlers>>();
  private lastTickIdValue: bigint | null = null;
  /** The oldest tick an HTTP snapshot was as of, while no tick has been pushed (noteTickSnapshot). */
  private snapshotTickIdValue: bigint | null = null;
  private attempt = 0;
  private everOpened = false;
  private statusValue: ConnectionStatus = 'idle';
  private readonly statusListeners = new Set<(status: ConnectionStatus) => void>();
  private reconnectTimer: Timer | null = null;
  private heartbeatTimer: Timer | null = null;
  private pongTimer: Timer | null = null;
  private lingerTimer: Timer | null = null;
  /** User-event subscriptions; `following` once one has seen an `authed` (so it holds current data). */
  private readonly userListeners = new Set<{ handlers: UserEventHandlers; following: boolean }>();
  /** The token sent in `auth` on the current socket, until the socket goes (null: none sent). */
  private authToken: string | null = null;
  /** The user the current socket authenticated as. */
  private authedUserIdValue: string | null = null;
  /** When the current socket's `authed` arrived (Date.now()): events flow from then on. */
  private authedAtMs = 0;
  /** A token the server refused: not sent again until the session's token is another one. */
  private refusedToken: string | null = null;
  private lastAuthState: AuthState = 'none';
  private readonly authListeners = new Set<(state: AuthState) => void>();

  constructor(options: RealtimeOptions) {
    const { readFrame, loadFrameReader, ...rest } = options;
    if (!readFrame && !loadFrameReader) throw new Error('RealtimeConnection needs readFrame or loadFrameReader');
    this.readFrame = readFrame ?? null;
    this.loadFrameReader = loadFrameReader ?? null;
    this.options = {
      token: () => null,
      random: Math.random,
      backoffBaseMs: 500,
      backoffMaxMs: 30_000,
      heartbeatMs: 25_000,
      pongTimeoutMs: 10_000,
      lingerMs: 5_000,
      onSessionEnded: () => {},
      ...rest,
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
    else if (isNew && this.isOpen()) {
      const sinceTickId = channel === 'ticks' ? this.ticksResumeFrom() : null;
      this.send(sinceTickId !== null ? { op: 'subscribe', channels: [channel], sinceTickId } : { op: 'subscribe', channels: [channel] });
    }

    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.leave(channel, handlers);
    };
  }

  /**
   * Listens to the user's own events (and to `onResync`); the returned function stops. With a
   * session token the connection opens (and authenticates) while anyone listens; without one no
   * event can come, so no socket is opened for this alone.
   */
  onUserEvent(listener: UserEventHandlers | ((event: UserEvent) => void)): () => void {
    const handlers = typeof listener === 'function' ? { onEvent: listener } : listener;
    // Joining an authenticated connection: it follows events from now on, and what it stands for
    // may have been loaded before `authed` (a route's prefetch runs before the screen mounts), so
    // it is told when events began to flow and refetches what is older.
    const joinedAuthed = this.authedUserIdValue !== null;
    const entry = { handlers, following: joinedAuthed };
    this.userListeners.add(entry);
    if (joinedAuthed) handlers.onResync?.('start', this.authedAtMs);
    if (this.wanted()) {
      this.cancel('lingerTimer');
      if (this.socket === null && this.reconnectTimer === null) this.connect();
      else this.sendAuth();
    }
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.userListeners.delete(entry);
      this.release();
    };
  }

  /** Where the connection stands with the user's events (`authed`: events are delivered). */
  authState(): AuthState {
    if (this.authedUserIdValue !== null) return 'authed';
    if (this.authToken !== null) return 'pending';
    const token = this.options.token();
    return token !== null && token === this.refusedToken ? 'refused' : 'none';
  }

  /** The user the connection authenticated as, while it is. */
  authedUserId(): string | null {
    return this.authedUserIdValue;
  }

  onAuthState(listener: (state: AuthState) => void): () => void {
    this.authListeners.add(listener);
    return () => {
      this.authListeners.delete(listener);
    };
  }

  /**
   * The session's token changed (login, logout, another tab): authenticate with the new one, or,
   * when the socket already authenticated with another token (the server allows one user per
   * connection, and a logged-out device must stop receiving the old user's events), reconnect.
   */
  sessionChanged(): void {
    const token = this.options.token();
    if (this.refusedToken !== null && token !== this.refusedToken) this.refusedToken = null;
    if (this.socket !== null && this.authToken !== null && this.authToken !== token) {
      this.closeSocket();
      if (this.wanted()) {
        this.cancel('reconnectTimer');
        this.attempt = 0;
        this.connect();
      } else {
        this.cancel('reconnectTimer');
        this.forgetSession();
      }
      this.notifyAuth();
      return;
    }
    if (this.wanted()) {
      this.cancel('lingerTimer');
      if (this.socket === null && this.reconnectTimer === null) this.connect();
      else this.sendAuth();
    } else {
      this.release();
    }
    this.notifyAuth();
  }

  /** The highest tick id seen, as the decimal string the server sent. */
  lastTickId(): string | null {
    return this.lastTickIdValue === null ? null : this.lastTickIdValue.toString();
  }

  /**
   * A screen's HTTP snapshot of prices is as of recorded tick `tickId` (its newest). Until a tick is
   * pushed, subscribing `ticks` asks the server for every tick after the oldest such snapshot, so
   * none recorded between the snapshot and the subscription is missed (each is delivered once; a
   * screen ignores a tick older than what it shows).
   */
  noteTickSnapshot(tickId: string): void {
    if (this.lastTickIdValue !== null) return;
    const id = BigInt(tickId);
    if (this.snapshotTickIdValue === null || id < this.snapshotTickIdValue) this.snapshotTickIdValue = id;
  }

  /** Where a subscription of `ticks` resumes from: the last tick pushed, else the oldest snapshot noted. */
  private ticksResumeFrom(): string | null {
    const id = this.lastTickIdValue ?? this.snapshotTickIdValue;
    return id === null ? null : id.toString();
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
    if (this.reconnectTimer === null || !this.wanted()) return;
    this.cancel('reconnectTimer');
    this.connect();
  }

  /** Closes the socket and forgets every channel (tests, logout). */
  dispose(): void {
    this.channels.clear();
    this.userListeners.clear();
    this.closeSocket();
    this.cancel('reconnectTimer');
    this.forgetSession();
    this.notifyAuth();
  }

  /**
   * A deliberate close ends the session: the next subscriber starts from its own HTTP snapshot,
   * so there is nothing to resume and no replay to ask for.
   */
  private forgetSession() {
    this.everOpened = false;
    this.lastTickIdValue = null;
    this.snapshotTickIdValue = null;
    this.attempt = 0;
    this.setStatus('idle');
  }

  private leave(channel: string, handlers: ChannelHandlers) {
    const set = this.channels.get(channel);
    if (!set?.delete(handlers) || set.size > 0) return;
    this.channels.delete(channel);
    if (this.isOpen()) this.send({ op: 'unsubscribe', channels: [channel] });
    this.release();
  }

  /** Channels, or user events with a token to authenticate with: a reason to keep the socket. */
  private wanted(): boolean {
    return this.channels.size > 0 || (this.userListeners.size > 0 && this.usableToken() !== null);
  }

  /** The session token, unless the server refused it. */
  private usableToken(): string | null {
    const token = this.options.token();
    return token === null || token === '' || token === this.refusedToken ? null : token;
  }

  /** Nothing left to listen to: stop reconnecting, and close after the linger. */
  private release() {
    if (this.wanted()) return;
    this.cancel('reconnectTimer');
    if (this.socket === null) {
      this.forgetSession();
      return;
    }
    if (this.lingerTimer !== null) return;
    this.lingerTimer = setTimeout(() => {
      this.lingerTimer = null;
      this.closeSocket();
      this.forgetSession();
      this.notifyAuth();
    }, this.options.lingerMs);
  }

  private isOpen(): boolean {
    return this.socket !== null && this.socket.readyState === OPEN && this.statusValue === 'open';
  }

  private connect() {
    this.setStatus(this.everOpened ? 'reconnecting' : 'connecting');
    if (this.readFrame === null) {
      this.loadReader();
      return;
    }
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
      // Authenticate first: the server handles frames in order.
      this.sendAuth();
      const channels = [...this.channels.keys()];
      if (channels.length === 0) return;
      // From the last tick seen or, before any, from the screens' snapshot, if one was noted.
      const sinceTickId = channels.includes('ticks') ? this.ticksResumeFrom() : null;
      this.send(sinceTickId !== null ? { op: 'subscribe', channels, sinceTickId } : { op: 'subscribe', channels });
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

  /** Loads the frame reader, then connects if anyone still listens; a failed load backs off and retries. */
  private loadReader() {
    if (this.readerLoading || this.loadFrameReader === null) return;
    this.readerLoading = true;
    this.loadFrameReader().then(
      (reader) => {
        this.readerLoading = false;
        this.readFrame = reader;
        if (!this.wanted()) this.setStatus('idle');
        else if (this.socket === null && this.reconnectTimer === null) this.connect();
      },
      () => {
        this.readerLoading = false;
        if (this.wanted()) this.scheduleReconnect();
        else this.setStatus('idle');
      },
    );
  }

  private receive(data: unknown) {
    if (typeof data !== 'string') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      return;
    }
    // Set: no socket opens before the reader is there (connect).
    const frame = this.readFrame?.(parsed);
    if (!frame) return;
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
      case 'authed':
        this.authed(frame.userId);
        return;
      case 'event':
        if (this.authedUserIdValue === null) return;
        for (const entry of [...this.userListeners]) entry.handlers.onEvent?.(frame.event);
        return;
      case 'error':
        this.refused(frame.code, frame.msg);
        return;
      case 'unauthed':
        this.sessionEnded(frame.code, frame.msg);
        return;
      default:
        return;
    }
  }

  /** Sends `auth` on the open socket when there is a usable token and none was sent yet. */
  private sendAuth() {
    if (this.authToken !== null || !this.isOpen()) return;
    const token = this.usableToken();
    if (token === null) return;
    this.authToken = token;
    this.send({ op: 'auth', token });
    this.notifyAuth();
  }

  /**
   * Events flow from here on; what happened before (or while disconnected) is not replayed, so
   * every listener refetches.
   */
  private authed(userId: string) {
    if (this.authToken === null) return;
    const again = this.authedUserIdValue !== null;
    this.authedUserIdValue = userId;
    if (!again) this.authedAtMs = Date.now();
    this.notifyAuth();
    if (again) return;
    for (const entry of [...this.userListeners]) {
      const reason: ResyncReason = entry.following ? 'gap' : 'start';
      entry.following = true;
      entry.handlers.onResync?.(reason, this.authedAtMs);
    }
  }

  /**
   * An error frame while `auth` awaits its answer: a 401 (no such token, or an empty one) or
   * "user status incorrect" means the session is over. The token is not sent again until it
   * changes; the connection keeps its public channels. Anything else (a busy server) leaves the
   * auth to the next connection.
   */
  private refused(code: number, msg: string) {
    if (this.authToken === null || this.authedUserIdValue !== null) return;
    const over = code === 401 || (code === errorCatalogue.USER_STATUS_INCORRECT.status && msg === errorCatalogue.USER_STATUS_INCORRECT.msg);
    if (!over) return;
    this.refusedToken = this.authToken;
    this.authToken = null;
    this.notifyAuth();
    // Nothing else to listen to: the socket can go.
    this.release();
  }

  /**
   * The server ended this socket's user stream: no event comes after it. The token is not sent
   * again; if the device still holds it, the app's session rules end it (the token may already
   * have been replaced, by a login in another tab, and then the new one authenticates instead).
   */
  private sessionEnded(code: number, msg: string) {
    const token = this.authToken;
    if (token === null) return;
    this.refusedToken = token;
    this.authToken = null;
    this.authedUserIdValue = null;
    this.notifyAuth();
    if (this.options.token() === token) this.options.onSessionEnded(code, msg);
    this.release();
  }

  private notifyAuth() {
    const state = this.authState();
    if (state === this.lastAuthState) return;
    this.lastAuthState = state;
    for (const listener of [...this.authListeners]) listener(state);
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
    this.notifyAuth();
    if (!this.wanted()) {
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
    // The server forgets a connection's user with the connection.
    this.authToken = null;
    this.authedUserIdValue = null;
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
      if (this.wanted()) this.connect();
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
