import websocket from '@fastify/websocket';
import {
  AppError,
  type UserEvent,
  type WsClientFrame,
  type WsServerFrame,
  errorCatalogue,
  maxChannelsPerConnection,
  maxReplayTicks,
  wsClientFrameSchema,
  wsServerFrameSchema,
} from '@keel/contracts';
import type { CandleInterval } from '@keel/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import type { Deps } from '../deps.ts';
import type { TickStream } from '../market/market.service.ts';
import { candleToWire, tickToWire } from '../market/tick-wire.ts';
import { type RecordedTick, readTicksForReplay } from '../persistence/market-ticks.store.ts';
import { type BusEvent, type EventBus, type Unsubscribe, userChannel } from '../realtime/event-bus.ts';
import { endedUserSessions, resolveUserSession, type UserSession } from '../use-cases/auth/resolve-session.ts';
import { type CandleChannel, CandleTracker } from './channels/candle-tracker.ts';
import { isWsOriginAllowed } from './origin.ts';

export interface GatewayOptions {
  /** Largest client frame; a larger one closes the connection (1009, by the ws library). */
  maxFrameBytes: number;
  /** Unsent bytes a connection may queue; beyond it the client is too slow and is closed (1013). */
  maxBufferedBytes: number;
  /** A ping every this long; a connection that has not answered the previous one is dropped. */
  heartbeatIntervalMs: number;
  /** Open connections per node; one more is closed at once (1013). */
  maxConnections: number;
  /** Client frames per connection per `frameWindowMs`; more are answered with an error and ignored. */
  maxFramesPerWindow: number;
  frameWindowMs: number;
  /** Ticks replayed for `sinceTickId`, newest kept (the contract's maxReplayTicks). */
  maxReplayTicks: number;
  /** Reads the replay; a test wraps it to make live ticks arrive while the replay is in flight. */
  readReplay: typeof readTicksForReplay;
  /**
   * Every this long the sessions of all authenticated sockets are checked against the database, in
   * one query: the bound on how long a socket keeps its user stream when the announcement that its
   * session ended was lost (the bus is at most once).
   */
  sessionRecheckIntervalMs: number;
}

export const defaultGatewayOptions: GatewayOptions = {
  maxFrameBytes: 16 * 1024,
  maxBufferedBytes: 1024 * 1024,
  heartbeatIntervalMs: 30_000,
  maxConnections: 10_000,
  maxFramesPerWindow: 50,
  frameWindowMs: 10_000,
  maxReplayTicks,
  readReplay: readTicksForReplay,
  sessionRecheckIntervalMs: 60_000,
};

const OPEN = 1;
const CLOSE_TOO_SLOW = 1013;
const CLOSE_GOING_AWAY = 1001;
/** The longest single wait of a session's expiry timer (setTimeout holds about 24.8 days at most); a later expiry is waited for in steps. */
const MAX_TIMER_MS = 24 * 3_600_000;
/** Events held while a connection's session is being checked; more than this and the oldest go (they are nudges). */
const MAX_HELD_EVENTS = 100;
/** Sessions checked per query by the periodic check. */
const SESSION_CHECK_BATCH = 500;

const parameterError: WsServerFrame = { type: 'error', code: errorCatalogue.PARAMETER_ERROR.status, msg: errorCatalogue.PARAMETER_ERROR.msg };

/** Checked once against the contract and serialised once, however many connections it goes to. */
function encode(frame: WsServerFrame): string {
  return JSON.stringify(wsServerFrameSchema.parse(frame));
}

function candleChannelOf(channel: string): CandleChannel | undefined {
  const match = /^candles:([A-Z0-9]{2,10}\/[A-Z0-9]{2,10}):(1m|5m|15m|1h|1d)$/.exec(channel);
  return match ? { symbol: match[1]!, interval: match[2] as CandleInterval } : undefined;
}

const candleChannelName = (channel: CandleChannel) => `candles:${channel.symbol}:${channel.interval}`;

/** The tick stream of a node built without a MarketService: nothing recorded is ever announced. */
export const noTickStream: TickStream = { lastTickId: 0n, latest: () => undefined, onTicks: () => () => {} };

class Connection {
  readonly channels = new Set<string>();
  /** No tick with an id at or below this is sent again: replay and live meet without a repeat. */
  lastSentTickId = 0n;
  /** While a replay is read, live ticks wait here so they follow the replay in order. */
  held: RecordedTick[] | undefined;
  alive = true;
  closed = false;
  /** Frames are handled one at a time, in arrival order. */
  queue: Promise<void> = Promise.resolve();
  windowStartMs = 0;
  framesInWindow = 0;
  /** The user this connection authenticated as (one per connection), and its bus subscription. */
  userId: bigint | undefined;
  userEvents: Unsubscribe | undefined;
  /** The session it authenticated with; its user stream lasts as long as that session. */
  sessionTokenHash: string | undefined;
  sessionExpiresAtMs = 0;
  expiryTimer: ReturnType<typeof setTimeout> | undefined;
  /** While the session is checked after "sessions ended", the user's events wait here. */
  heldUserEvents: UserEvent[] | undefined;
  sessionCheck: Promise<void> | undefined;
  sessionCheckAgain = false;

  constructor(
    readonly socket: WebSocket,
    private readonly maxBufferedBytes: number,
  ) {}

  send(text: string): void {
    if (this.closed || this.socket.readyState !== OPEN) return;
    this.socket.send(text);
    if (this.socket.bufferedAmount > this.maxBufferedBytes) this.close(CLOSE_TOO_SLOW, 'client too slow');
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.socket.close(code, reason);
  }

  /** Whatever way it ended: stop listening for the user's events. */
  release(): void {
    this.closed = true;
    this.stopUserStream();
  }

  /** No more of the user's events: the bus subscription, the session and its timer go. */
  stopUserStream(): void {
    this.userEvents?.();
    this.userEvents = undefined;
    this.userId = undefined;
    this.sessionTokenHash = undefined;
    this.heldUserEvents = undefined;
    clearTimeout(this.expiryTimer);
    this.expiryTimer = undefined;
  }

  sendTicks(ticks: readonly RecordedTick[], encoded: ReadonlyMap<RecordedTick, string>): void {
    for (const tick of ticks) {
      if (tick.tickId <= this.lastSentTickId) continue;
      this.lastSentTickId = tick.tickId;
      this.send(encoded.get(tick) ?? encode({ type: 'tick', tick: tickToWire(tick) }));
    }
  }
}

/**
 * The push connection `/ws` (contracts: ws/market.events.ts). Public channels, no token: `ticks`
 * and `candles:<symbol>:<interval>` of listed markets. Ticks come from the node's TickStream (the
 * tail of market_ticks), so every node pushes the same recorded ticks with the same ids; a client
 * that reconnects, to this node or another, resumes with `sinceTickId` and gets the recorded ticks
 * it missed from the database, then live ones, with no gap and no repeat.
 *
 * A connection may also authenticate (`auth` with the session token) to receive its user's events
 * from `deps.events` (the bus: in-process, or Redis between nodes), whichever node published them.
 */
export async function registerMarketGateway(app: FastifyInstance, deps: Deps, stream: TickStream, overrides: Partial<GatewayOptions> = {}): Promise<void> {
  const options: GatewayOptions = { ...defaultGatewayOptions, ...overrides };
  if (!deps.events) throw new Error('the /ws gateway needs deps.events');
  const events: EventBus = deps.events;
  const listed = new Set(deps.config.MARKET_SYMBOLS);
  const connections = new Set<Connection>();
  const tracker = new CandleTracker(deps.db);
  // Candle work (reads, folds, snapshots) runs in one queue, so candles only ever move forward.
  let candleQueue: Promise<void> = Promise.resolve();
  const onCandleQueue = (work: () => Promise<void>) => {
    candleQueue = candleQueue.then(work).catch((error: unknown) => app.log.error({ err: error }, 'ws: candle update failed'));
    return candleQueue;
  };

  const subscribedCandleChannels = (): CandleChannel[] => {
    const names = new Set<string>();
    for (const connection of connections) for (const channel of connection.channels) if (channel.startsWith('candles:')) names.add(channel);
    return [...names].map((name) => candleChannelOf(name)!);
  };

  const unsubscribeStream = stream.onTicks((ticks) => {
    // Synchronous with the stream's lastTickId moving on: see the replay in subscribe().
    const encoded = new Map(ticks.map((tick) => [tick, encode({ type: 'tick', tick: tickToWire(tick) })]));
    for (const connection of connections) {
      if (!connection.channels.has('ticks')) continue;
      if (!connection.held) connection.sendTicks(ticks, encoded);
      else if (connection.held.length + ticks.length <= options.maxReplayTicks) connection.held.push(...ticks);
      // Its replay takes so long that live ticks pile up: the client cannot keep up with this market.
      else connection.close(CLOSE_TOO_SLOW, 'client too slow');
    }
    const channels = subscribedCandleChannels();
    if (channels.length === 0) return;
    void onCandleQueue(async () => {
      const updates = await tracker.apply(ticks, channels);
      for (const { channel, candle } of updates) {
        const name = candleChannelName(channel);
        const text = encode({ type: 'candle', symbol: channel.symbol, interval: channel.interval, candle: candleToWire(candle) });
        for (const connection of connections) if (connection.channels.has(name)) connection.send(text);
      }
    });
  });

  async function subscribe(connection: Connection, frame: Extract<WsClientFrame, { op: 'subscribe' }>) {
    const added = frame.channels.filter((channel) => !connection.channels.has(channel));
    if (connection.channels.size + new Set(added).size > maxChannelsPerConnection) {
      connection.send(encode(parameterError));
      return;
    }
    const unlisted = added.map(candleChannelOf).find((channel) => channel && !listed.has(channel.symbol));
    if (unlisted) {
      connection.send(encode({ type: 'error', code: errorCatalogue.RECORD_NOT_FOUND.status, msg: errorCatalogue.RECORD_NOT_FOUND.msg }));
      return;
    }
    for (const channel of added) connection.channels.add(channel);

    let replay: { ticks: RecordedTick[]; truncated: boolean } = { ticks: [], truncated: false };
    if (frame.sinceTickId !== undefined && frame.channels.includes('ticks')) {
      // Everything up to the stream's current id is read from the database; everything after it
      // arrives live and is held until the replay is out. The two meet exactly at `upToId`.
      const sinceId = BigInt(frame.sinceTickId) > connection.lastSentTickId ? BigInt(frame.sinceTickId) : connection.lastSentTickId;
      const upToId = stream.lastTickId;
      connection.held = [];
      try {
        replay = await options.readReplay(deps.db, sinceId, upToId, options.maxReplayTicks);
      } catch (error) {
        connection.held = undefined;
        throw error;
      }
      // A client that saw more than this node has read (it came from a node further ahead) must not get those again.
      if (sinceId > connection.lastSentTickId) connection.lastSentTickId = sinceId;
    }
    connection.send(
      encode({ type: 'subscribed', channels: [...connection.channels], replayedTicks: replay.ticks.length, replayTruncated: replay.truncated }),
    );
    if (connection.held) {
      connection.sendTicks(replay.ticks, new Map());
      const held = connection.held;
      connection.held = undefined;
      connection.sendTicks(held, new Map());
    }
    // The current candle of each new candle channel, then its updates.
    const newCandleChannels = added.map(candleChannelOf).filter((channel): channel is CandleChannel => channel !== undefined);
    if (newCandleChannels.length > 0) {
      await onCandleQueue(async () => {
        for (const channel of newCandleChannels) {
          const candle = await tracker.candle(channel);
          if (candle) connection.send(encode({ type: 'candle', symbol: channel.symbol, interval: channel.interval, candle: candleToWire(candle) }));
        }
      });
    }
  }

  /**
   * `auth`: the token is checked like the HTTP API's Authorization; its catalogue error (401 token
   * does not exist, …) is answered as an error frame and the connection keeps its public channels.
   * `authed` is sent once the bus subscription is live, so nothing published after it is missed.
   * The user stream then lasts as long as the session (ADR 0023): it ends, with an `unauthed`
   * frame, when the bus says the user's sessions ended and the database confirms this one did,
   * when the session expires, or when the periodic check finds it over.
   */
  async function authenticate(connection: Connection, token: string) {
    let session: UserSession;
    try {
      session = await resolveUserSession(deps, token);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      connection.send(encode({ type: 'error', code: error.status, msg: error.message }));
      return;
    }
    const userId = session.user.id;
    const authed = encode({ type: 'authed', userId: userId.toString() });
    if (connection.userId !== undefined) {
      // One user per connection: the same user again is harmless, another one is refused.
      connection.send(connection.userId === userId ? authed : encode(parameterError));
      return;
    }
    if (connection.closed) return;
    connection.userId = userId;
    connection.sessionTokenHash = session.tokenHash;
    connection.userEvents = events.subscribe(userChannel(userId), (event) => onUserChannel(connection, event));
    await connection.userEvents.ready;
    // A session that ended between the check above and the subscription was announced before this
    // node listened: look once more, now that no later announcement can be missed.
    const ended = (await endedUserSessions(deps.db, [session.tokenHash], deps.now())).get(session.tokenHash);
    if (ended || connection.userId !== userId) {
      if (connection.userId === userId) connection.stopUserStream();
      const refusal = ended ?? new AppError('TOKEN_NOT_FOUND');
      connection.send(encode({ type: 'error', code: refusal.status, msg: refusal.message }));
      return;
    }
    armSessionExpiry(connection, session.expiresAt.getTime());
    connection.send(authed);
  }

  /** What the user's bus channel brings: an event for the client, or news that sessions ended. */
  function onUserChannel(connection: Connection, event: BusEvent) {
    if (event.kind === 'sessions.ended') {
      checkSession(connection);
      return;
    }
    // Travel only on the nodes' own channels (session cache, market), never on a user's.
    if (event.kind === 'user.changed' || event.kind === 'ticks.recorded') return;
    if (connection.heldUserEvents) {
      // The session is being checked: the event goes out only if it is still live.
      if (connection.heldUserEvents.push(event) > MAX_HELD_EVENTS) connection.heldUserEvents.shift();
      return;
    }
    connection.send(encode({ type: 'event', event }));
  }

  /** The user stream is over: say so with the error an HTTP call with the token now gets. */
  function endUserStream(connection: Connection, error: AppError) {
    if (connection.userId === undefined) return;
    connection.stopUserStream();
    connection.send(encode({ type: 'unauthed', code: error.status, msg: error.message }));
  }

  /**
   * Checks the connection's session against the database, holding the user's events meanwhile.
   * Another "sessions ended" during a check means a later change: it is checked again after.
   */
  function checkSession(connection: Connection) {
    connection.sessionCheckAgain = true;
    if (connection.sessionCheck) return;
    connection.heldUserEvents ??= [];
    connection.sessionCheck = (async () => {
      while (connection.sessionCheckAgain && connection.sessionTokenHash !== undefined) {
        connection.sessionCheckAgain = false;
        const tokenHash = connection.sessionTokenHash;
        try {
          const ended = (await endedUserSessions(deps.db, [tokenHash], deps.now())).get(tokenHash);
          if (ended && connection.sessionTokenHash === tokenHash) endUserStream(connection, ended);
        } catch (error) {
          // The stream stays; the periodic check looks again.
          app.log.warn({ err: error }, 'ws: checking a session failed');
          break;
        }
      }
      const held = connection.heldUserEvents ?? [];
      connection.heldUserEvents = undefined;
      connection.sessionCheck = undefined;
      if (connection.userId !== undefined) for (const event of held) connection.send(encode({ type: 'event', event }));
    })();
  }

  /** At the session's expiry, with no request and no announcement, the stream ends too. */
  function armSessionExpiry(connection: Connection, expiresAtMs: number) {
    connection.sessionExpiresAtMs = expiresAtMs;
    clearTimeout(connection.expiryTimer);
    const waitMs = expiresAtMs - deps.now().getTime();
    connection.expiryTimer = setTimeout(
      () => {
        connection.expiryTimer = undefined;
        if (connection.userId === undefined) return;
        // A wait longer than a timer holds comes back here early and waits the rest.
        if (deps.now().getTime() < connection.sessionExpiresAtMs) armSessionExpiry(connection, connection.sessionExpiresAtMs);
        else checkSession(connection);
      },
      Math.min(Math.max(waitMs, 0), MAX_TIMER_MS),
    );
    connection.expiryTimer.unref();
  }

  /** The periodic check: every authenticated connection's session, a batch per query. */
  let checkingAll = false;
  async function checkAllSessions() {
    if (checkingAll) return;
    checkingAll = true;
    try {
      const authenticated = [...connections].filter((connection) => connection.sessionTokenHash !== undefined);
      for (let start = 0; start < authenticated.length; start += SESSION_CHECK_BATCH) {
        const batch = authenticated.slice(start, start + SESSION_CHECK_BATCH);
        const ended = await endedUserSessions(
          deps.db,
          batch.flatMap((connection) => (connection.sessionTokenHash === undefined ? [] : [connection.sessionTokenHash])),
          deps.now(),
        );
        for (const connection of batch) {
          const error = connection.sessionTokenHash === undefined ? undefined : ended.get(connection.sessionTokenHash);
          if (error) endUserStream(connection, error);
        }
      }
    } catch (error) {
      app.log.warn({ err: error }, 'ws: the periodic session check failed');
    } finally {
      checkingAll = false;
    }
  }

  function unsubscribe(connection: Connection, channels: readonly string[]) {
    for (const channel of channels) connection.channels.delete(channel);
    void onCandleQueue(async () => tracker.retain(subscribedCandleChannels()));
  }

  async function handle(connection: Connection, data: RawData, isBinary: boolean) {
    const nowMs = Date.now();
    if (nowMs - connection.windowStartMs >= options.frameWindowMs) {
      connection.windowStartMs = nowMs;
      connection.framesInWindow = 0;
    }
    connection.framesInWindow += 1;
    if (connection.framesInWindow > options.maxFramesPerWindow) {
      connection.send(encode({ type: 'error', code: errorCatalogue.TOO_MANY_REQUESTS.status, msg: errorCatalogue.TOO_MANY_REQUESTS.msg }));
      return;
    }
    let json: unknown;
    try {
      if (isBinary) throw new Error('binary frame');
      json = JSON.parse(data.toString());
    } catch {
      connection.send(encode(parameterError));
      return;
    }
    const parsed = wsClientFrameSchema.safeParse(json);
    if (!parsed.success) {
      connection.send(encode(parameterError));
      return;
    }
    const frame = parsed.data;
    if (frame.op === 'ping') connection.send(encode({ type: 'pong' }));
    else if (frame.op === 'subscribe') await subscribe(connection, frame);
    else if (frame.op === 'auth') await authenticate(connection, frame.token);
    else unsubscribe(connection, frame.channels);
  }

  await app.register(async (scope) => {
    await scope.register(websocket, {
      options: { maxPayload: options.maxFrameBytes },
      // Going away (1001): clients reconnect, to this node once it is back or to another.
      preClose(done) {
        for (const client of scope.websocketServer.clients) client.close(CLOSE_GOING_AWAY, 'server shutting down');
        scope.websocketServer.close();
        done();
      },
    });
    // Checked before the upgrade: a refused origin never gets a socket (ADR 0023).
    const checkOrigin = async (request: FastifyRequest) => {
      if (!isWsOriginAllowed(request.headers.origin, request.host, deps.config.CORS_ORIGINS)) throw new AppError('PERMISSION_DENIED');
    };
    scope.get('/ws', { websocket: true, preValidation: checkOrigin }, (socket) => {
      const connection = new Connection(socket, options.maxBufferedBytes);
      if (connections.size >= options.maxConnections) {
        connection.close(CLOSE_TOO_SLOW, 'too many connections');
        return;
      }
      connections.add(connection);
      socket.on('pong', () => {
        connection.alive = true;
      });
      socket.on('message', (data, isBinary) => {
        connection.alive = true;
        connection.queue = connection.queue
          .then(() => handle(connection, data, isBinary))
          .catch((error: unknown) => {
            app.log.error({ err: error }, 'ws: frame handling failed');
            connection.send(encode({ type: 'error', code: errorCatalogue.SYSTEM_ERROR.status, msg: errorCatalogue.SYSTEM_ERROR.msg }));
          });
      });
      socket.on('close', () => {
        connection.release();
        connections.delete(connection);
        if ([...connection.channels].some((channel) => channel.startsWith('candles:'))) {
          void onCandleQueue(async () => tracker.retain(subscribedCandleChannels()));
        }
      });
    });
  });

  // Heartbeat: a connection that did not answer the last ping (a dead peer, a half-open TCP
  // connection) is dropped, so it holds no memory and no slot.
  const heartbeat = setInterval(() => {
    for (const connection of connections) {
      if (!connection.alive) {
        connection.release();
        connection.socket.terminate();
        connections.delete(connection);
        continue;
      }
      connection.alive = false;
      if (connection.socket.readyState === OPEN) connection.socket.ping();
    }
  }, options.heartbeatIntervalMs);
  heartbeat.unref();
  const sessionRecheck = setInterval(() => void checkAllSessions(), options.sessionRecheckIntervalMs);
  sessionRecheck.unref();

  app.addHook('onClose', async () => {
    clearInterval(heartbeat);
    clearInterval(sessionRecheck);
    unsubscribeStream();
    await candleQueue;
  });
}
