import type { UserEvent, WsClientFrame, WsServerFrame } from '@keel/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type AuthState,
  type ChannelHandlers,
  defaultSocketUrl,
  RealtimeConnection,
  type ResyncReason,
  type SocketLike,
  type UserEventHandlers,
} from './connection.ts';
import { readServerFrame } from './frame-reader.ts';

/** A socket the test opens, feeds and closes by hand; it records what the client sent. */
class FakeSocket implements SocketLike {
  readyState = 0;
  readonly sent: WsClientFrame[] = [];
  closedByClient = false;
  onopen: ((event: unknown) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(JSON.parse(data) as WsClientFrame);
  }
  close() {
    this.closedByClient = true;
    this.readyState = 3;
  }
  // Driven by the test:
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(frame: WsServerFrame | string) {
    this.onmessage?.({ data: typeof frame === 'string' ? frame : JSON.stringify(frame) });
  }
  drop() {
    this.readyState = 3;
    this.onclose?.({});
  }
}

const tick = (tickId: string, price = '100.00000000', symbol = 'BTC/USDT'): WsServerFrame => ({
  type: 'tick',
  tick: { tickId, symbol, price, atMs: 1_700_000_000_000, source: 'simulator' },
});

const subscribed = (channels: string[], replayTruncated = false, replayedTicks = 0): WsServerFrame => ({
  type: 'subscribed',
  channels,
  replayedTicks,
  replayTruncated,
});

let sockets: FakeSocket[];
let random: number;
/** The session token the connection reads (null: logged out). */
let token: string | null;

function makeConnection(overrides: Partial<ConstructorParameters<typeof RealtimeConnection>[0]> = {}) {
  return new RealtimeConnection({
    url: () => 'ws://example.test/ws',
    readFrame: readServerFrame,
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    random: () => random,
    token: () => token,
    backoffBaseMs: 1_000,
    backoffMaxMs: 16_000,
    heartbeatMs: 20_000,
    pongTimeoutMs: 5_000,
    lingerMs: 3_000,
    ...overrides,
  });
}

const last = () => sockets[sockets.length - 1]!;

function recorder(): ChannelHandlers & { frames: WsServerFrame[]; resyncs: number } {
  const handlers = {
    frames: [] as WsServerFrame[],
    resyncs: 0,
    onFrame: (frame: WsServerFrame) => handlers.frames.push(frame),
    onResync: () => {
      handlers.resyncs += 1;
    },
  };
  return handlers;
}

function userRecorder(): UserEventHandlers & { events: UserEvent[]; resyncs: ResyncReason[]; sinceMs: number[] } {
  const handlers = {
    events: [] as UserEvent[],
    resyncs: [] as ResyncReason[],
    sinceMs: [] as number[],
    onEvent: (event: UserEvent) => handlers.events.push(event),
    onResync: (reason: ResyncReason, eventsSinceMs: number) => {
      handlers.resyncs.push(reason);
      handlers.sinceMs.push(eventsSinceMs);
    },
  };
  return handlers;
}

const authed = (userId = '7'): WsServerFrame => ({ type: 'authed', userId });
const chatEvent = (orderId = '12', messageId = '99'): WsServerFrame => ({ type: 'event', event: { kind: 'p2p.chat', orderId, messageId } });
const tokenMissing: WsServerFrame = { type: 'error', code: 401, msg: 'token does not exist' };

beforeEach(() => {
  vi.useFakeTimers();
  sockets = [];
  random = 0.5;
  token = null;
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the frame reader, loaded on the first connection', () => {
  /** A load the test settles by hand. */
  function pendingLoad() {
    const load = { calls: 0, resolve: (_reader: typeof readServerFrame) => {}, reject: (_error: Error) => {} };
    const loadFrameReader = () => {
      load.calls += 1;
      return new Promise<typeof readServerFrame>((resolve, reject) => {
        load.resolve = resolve;
        load.reject = reject;
      });
    };
    return { load, loadFrameReader };
  }

  it('opens no socket before the reader is there, then connects and reads frames with it', async () => {
    const { load, loadFrameReader } = pendingLoad();
    const connection = makeConnection({ readFrame: undefined, loadFrameReader });
    const ticks = recorder();
    connection.subscribe('ticks', ticks);
    connection.subscribe('candles:BTC/USDT:1m', recorder());
    expect(connection.status()).toBe('connecting');
    expect(sockets).toHaveLength(0);
    expect(load.calls).toBe(1);
    load.resolve(readServerFrame);
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
    last().open();
    last().receive(tick('5'));
    last().receive('{"type":"tick","tick":{"tickId":"not a frame"}}');
    expect(ticks.frames).toEqual([tick('5')]);
  });

  it('tries again with backoff when the reader cannot be loaded', async () => {
    const { load, loadFrameReader } = pendingLoad();
    const connection = makeConnection({ readFrame: undefined, loadFrameReader });
    connection.subscribe('ticks', recorder());
    load.reject(new Error('chunk failed'));
    await vi.waitFor(() => expect(connection.status()).toBe('reconnecting'));
    expect(sockets).toHaveLength(0);
    vi.advanceTimersByTime(1_000);
    expect(load.calls).toBe(2);
    load.resolve(readServerFrame);
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
  });

  it('stays closed when everyone left while the reader was loading', async () => {
    const { load, loadFrameReader } = pendingLoad();
    const connection = makeConnection({ readFrame: undefined, loadFrameReader });
    const leave = connection.subscribe('ticks', recorder());
    leave();
    load.resolve(readServerFrame);
    await vi.waitFor(() => expect(connection.status()).toBe('idle'));
    expect(sockets).toHaveLength(0);
  });
});

describe('subscriptions', () => {
  it('opens one socket lazily and subscribes each channel once, however many listen', () => {
    const connection = makeConnection();
    expect(sockets).toHaveLength(0);
    const a = recorder();
    const b = recorder();
    connection.subscribe('ticks', a);
    connection.subscribe('ticks', b);
    expect(sockets).toHaveLength(1);
    expect(connection.status()).toBe('connecting');
    last().open();
    expect(last().sent).toEqual([{ op: 'subscribe', channels: ['ticks'] }]);
    expect(connection.status()).toBe('open');

    last().receive(tick('7'));
    expect(a.frames).toHaveLength(1);
    expect(b.frames).toHaveLength(1);

    // A channel added on an open socket is subscribed at once, without a replay.
    connection.subscribe('candles:BTC/USDT:1m', recorder());
    expect(last().sent.at(-1)).toEqual({ op: 'subscribe', channels: ['candles:BTC/USDT:1m'] });
  });

  it('unsubscribes when the last listener leaves, and closes the socket after the linger', () => {
    const connection = makeConnection();
    const leaveA = connection.subscribe('ticks', recorder());
    const leaveB = connection.subscribe('ticks', recorder());
    last().open();
    leaveA();
    leaveA(); // leaving twice changes nothing
    expect(last().sent).toHaveLength(1);
    leaveB();
    expect(last().sent.at(-1)).toEqual({ op: 'unsubscribe', channels: ['ticks'] });
    expect(last().closedByClient).toBe(false);
    vi.advanceTimersByTime(3_000);
    expect(last().closedByClient).toBe(true);
    expect(connection.status()).toBe('idle');
    // No reconnect for a socket nobody needs.
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
  });

  it('keeps the socket when a channel is subscribed again within the linger', () => {
    const connection = makeConnection();
    const leave = connection.subscribe('ticks', recorder());
    last().open();
    leave();
    vi.advanceTimersByTime(1_000);
    connection.subscribe('ticks', recorder());
    vi.advanceTimersByTime(10_000);
    expect(sockets).toHaveLength(1);
    expect(last().closedByClient).toBe(false);
    expect(last().sent.at(-1)).toEqual({ op: 'subscribe', channels: ['ticks'] });
  });

  it('routes candles to their channel and ignores malformed frames', () => {
    const connection = makeConnection();
    const candles = recorder();
    const ticks = recorder();
    connection.subscribe('candles:ETH/USDT:5m', candles);
    connection.subscribe('ticks', ticks);
    last().open();
    last().receive('not json');
    last().receive(JSON.stringify({ type: 'tick', tick: { tickId: 'x' } }));
    last().receive({
      type: 'candle',
      symbol: 'ETH/USDT',
      interval: '5m',
      candle: { openTimeMs: 0, open: '1', high: '2', low: '1', close: '2', tickCount: 3 },
    });
    expect(candles.frames.map((frame) => frame.type)).toEqual(['candle']);
    expect(ticks.frames).toEqual([]);
  });
});

describe('reconnect', () => {
  it('backs off exponentially with jitter, capped, and starts over after a healthy frame', () => {
    const connection = makeConnection();
    connection.subscribe('ticks', recorder());
    const delays: number[] = [];
    // Each attempt fails at once; measure how long until the next socket appears.
    for (let i = 0; i < 7; i += 1) {
      const count = sockets.length;
      last().drop();
      expect(connection.status()).toBe('reconnecting');
      let waited = 0;
      while (sockets.length === count) {
        vi.advanceTimersByTime(100);
        waited += 100;
      }
      delays.push(waited);
    }
    // random = 0.5: three quarters of the ceiling 1 s, 2 s, 4 s, 8 s, 16 s, 16 s, 16 s.
    expect(delays).toEqual([800, 1_500, 3_000, 6_000, 12_000, 12_000, 12_000]);

    // A frame on an open connection resets the backoff.
    last().open();
    last().receive(subscribed(['ticks']));
    last().drop();
    vi.advanceTimersByTime(749);
    const before = sockets.length;
    vi.advanceTimersByTime(51);
    expect(sockets.length).toBe(before + 1);
  });

  it('spreads the delay between half and all of the ceiling', () => {
    for (const [value, expected] of [
      [0, 500],
      [0.999, 999],
    ] as const) {
      sockets = [];
      random = value;
      const connection = makeConnection();
      connection.subscribe('ticks', recorder());
      last().drop();
      vi.advanceTimersByTime(expected - 1);
      expect(sockets).toHaveLength(1);
      vi.advanceTimersByTime(1);
      expect(sockets).toHaveLength(2);
      connection.dispose();
    }
  });

  it('retries at once when asked (the device came back online)', () => {
    const connection = makeConnection();
    connection.subscribe('ticks', recorder());
    last().drop();
    connection.retryNow();
    expect(sockets).toHaveLength(2);
  });

  it('closes a connection that stops answering and reconnects', () => {
    const connection = makeConnection();
    connection.subscribe('ticks', recorder());
    const first = last();
    first.open();
    vi.advanceTimersByTime(20_000);
    expect(first.sent.at(-1)).toEqual({ op: 'ping' });
    // A pong in time keeps it.
    first.receive({ type: 'pong' });
    vi.advanceTimersByTime(5_000);
    expect(first.closedByClient).toBe(false);
    // The next ping goes unanswered.
    vi.advanceTimersByTime(15_000);
    vi.advanceTimersByTime(5_000);
    expect(first.closedByClient).toBe(true);
    expect(connection.status()).toBe('reconnecting');
    vi.advanceTimersByTime(1_000);
    expect(sockets).toHaveLength(2);
  });

  it('survives a socket that cannot even be created', () => {
    let fail = true;
    const connection = makeConnection({
      createSocket: (url) => {
        if (fail) throw new Error('blocked');
        const socket = new FakeSocket(url);
        sockets.push(socket);
        return socket;
      },
    });
    connection.subscribe('ticks', recorder());
    expect(connection.status()).toBe('reconnecting');
    fail = false;
    vi.advanceTimersByTime(1_000);
    expect(sockets).toHaveLength(1);
  });
});

describe('resume', () => {
  it('re-subscribes every channel with the last tick id seen and delivers each tick once', () => {
    const connection = makeConnection();
    const ticks = recorder();
    connection.subscribe('ticks', ticks);
    last().open();
    last().receive(subscribed(['ticks']));
    last().receive(tick('41'));
    last().receive(tick('42'));
    expect(connection.lastTickId()).toBe('42');

    last().drop();
    vi.advanceTimersByTime(1_000);
    last().open();
    expect(last().sent).toEqual([{ op: 'subscribe', channels: ['ticks'], sinceTickId: '42' }]);
    // The replay overlaps what was seen: 42 is dropped, 43 and 44 come through.
    last().receive(tick('42'));
    last().receive(tick('43'));
    last().receive(tick('44'));
    last().receive(subscribed(['ticks'], false, 2));
    expect(ticks.frames.filter((frame) => frame.type === 'tick').map((frame) => (frame.type === 'tick' ? frame.tick.tickId : ''))).toEqual([
      '41',
      '42',
      '43',
      '44',
    ]);
    expect(ticks.resyncs).toBe(0);
  });

  it('asks, on the first subscription, for the ticks after the oldest HTTP snapshot a screen noted', () => {
    const connection = makeConnection();
    // Two screens' snapshots, as of ticks 57 and 50: ticks after 50 may be missing from the older one.
    connection.noteTickSnapshot('57');
    connection.noteTickSnapshot('50');
    const ticks = recorder();
    connection.subscribe('ticks', ticks);
    last().open();
    expect(last().sent).toEqual([{ op: 'subscribe', channels: ['ticks'], sinceTickId: '50' }]);
    last().receive(tick('51'));
    last().receive(subscribed(['ticks'], false, 1));
    expect(ticks.frames.filter((frame) => frame.type === 'tick')).toHaveLength(1);
    // Once a tick was pushed, a snapshot no longer moves where a resume starts.
    connection.noteTickSnapshot('10');
    last().drop();
    vi.advanceTimersByTime(1_000);
    last().open();
    expect(last().sent).toEqual([{ op: 'subscribe', channels: ['ticks'], sinceTickId: '51' }]);
    expect(ticks.resyncs).toBe(0);
  });

  it('asks for the ticks after a snapshot when `ticks` joins a socket already open for other channels', () => {
    const connection = makeConnection();
    connection.subscribe('candles:BTC/USDT:1m', recorder());
    last().open();
    connection.noteTickSnapshot('70');
    connection.subscribe('ticks', recorder());
    expect(last().sent.at(-1)).toEqual({ op: 'subscribe', channels: ['ticks'], sinceTickId: '70' });
  });

  it('compares tick ids as integers, not as text', () => {
    const connection = makeConnection();
    const ticks = recorder();
    connection.subscribe('ticks', ticks);
    last().open();
    last().receive(tick('9'));
    last().receive(tick('10'));
    expect(connection.lastTickId()).toBe('10');
    expect(ticks.frames).toHaveLength(2);
  });

  it('asks for a refetch when the server truncated the replay', () => {
    const connection = makeConnection();
    const ticks = recorder();
    const other = recorder();
    connection.subscribe('ticks', ticks);
    connection.subscribe('candles:BTC/USDT:1m', other);
    last().open();
    last().receive(tick('5'));
    last().drop();
    vi.advanceTimersByTime(1_000);
    last().open();
    const resyncsBefore = ticks.resyncs;
    last().receive(subscribed(['ticks'], true, 2_000));
    expect(ticks.resyncs).toBe(resyncsBefore + 1);
  });

  it('refetches candles after a reconnect (they are not replayed) and ticks when no id was seen', () => {
    const connection = makeConnection();
    const ticks = recorder();
    const candles = recorder();
    connection.subscribe('ticks', ticks);
    connection.subscribe('candles:BTC/USDT:1m', candles);
    last().open();
    // First connection: the screens fetched over HTTP themselves; nothing to resync.
    expect(ticks.resyncs).toBe(0);
    expect(candles.resyncs).toBe(0);
    last().drop();
    vi.advanceTimersByTime(1_000);
    last().open();
    expect(last().sent).toEqual([{ op: 'subscribe', channels: ['ticks', 'candles:BTC/USDT:1m'] }]);
    expect(ticks.resyncs).toBe(1);
    expect(candles.resyncs).toBe(1);
  });

  it('starts afresh after a deliberate close: no replay for the next subscriber', () => {
    const connection = makeConnection();
    const leave = connection.subscribe('ticks', recorder());
    last().open();
    last().receive(tick('100'));
    leave();
    vi.advanceTimersByTime(3_000);
    const ticks = recorder();
    connection.subscribe('ticks', ticks);
    expect(connection.status()).toBe('connecting');
    last().open();
    expect(last().sent).toEqual([{ op: 'subscribe', channels: ['ticks'] }]);
    expect(ticks.resyncs).toBe(0);
    expect(connection.lastTickId()).toBeNull();
  });

  it('reports its status to listeners', () => {
    const connection = makeConnection();
    const seen: string[] = [];
    connection.onStatus((status) => seen.push(status));
    const leave = connection.subscribe('ticks', recorder());
    last().open();
    last().drop();
    vi.advanceTimersByTime(1_000);
    last().open();
    leave();
    vi.advanceTimersByTime(3_000);
    expect(seen).toEqual(['connecting', 'open', 'reconnecting', 'open', 'idle']);
  });
});

describe('user events', () => {
  it('sends auth on connect, before the channel subscriptions, and again on every reconnect', () => {
    token = 'tok-1';
    const connection = makeConnection();
    connection.subscribe('ticks', recorder());
    last().open();
    expect(last().sent).toEqual([
      { op: 'auth', token: 'tok-1' },
      { op: 'subscribe', channels: ['ticks'] },
    ]);
    expect(connection.authState()).toBe('pending');
    last().receive(authed('7'));
    expect(connection.authState()).toBe('authed');
    expect(connection.authedUserId()).toBe('7');

    last().drop();
    expect(connection.authState()).toBe('none');
    expect(connection.authedUserId()).toBeNull();
    vi.advanceTimersByTime(1_000);
    last().open();
    expect(last().sent[0]).toEqual({ op: 'auth', token: 'tok-1' });
    expect(last().sent[1]).toMatchObject({ op: 'subscribe', channels: ['ticks'] });
  });

  it('opens the socket for a user-event listener alone, and closes it after the last one leaves', () => {
    token = 'tok-1';
    const connection = makeConnection();
    const leaveA = connection.onUserEvent(userRecorder());
    const leaveB = connection.onUserEvent(() => {});
    expect(sockets).toHaveLength(1);
    last().open();
    expect(last().sent).toEqual([{ op: 'auth', token: 'tok-1' }]);
    leaveA();
    leaveA();
    vi.advanceTimersByTime(10_000);
    expect(last().closedByClient).toBe(false);
    leaveB();
    vi.advanceTimersByTime(3_000);
    expect(last().closedByClient).toBe(true);
    expect(connection.status()).toBe('idle');
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
  });

  it('delivers events to every listener once authenticated, and stops after a listener leaves', () => {
    token = 'tok-1';
    const connection = makeConnection();
    const a = userRecorder();
    const b = userRecorder();
    connection.onUserEvent(a);
    const leaveB = connection.onUserEvent(b);
    last().open();
    last().receive(authed());
    last().receive(chatEvent('12', '99'));
    last().receive({ type: 'event', event: { kind: 'message', unread: true } });
    last().receive({ type: 'event', event: { kind: 'p2p.order', orderId: '12', status: 'paid' } });
    // Not a valid event: ignored.
    last().receive(JSON.stringify({ type: 'event', event: { kind: 'p2p.chat', orderId: 'x' } }));
    expect(a.events).toEqual([
      { kind: 'p2p.chat', orderId: '12', messageId: '99' },
      { kind: 'message', unread: true },
      { kind: 'p2p.order', orderId: '12', status: 'paid' },
    ]);
    expect(b.events).toHaveLength(3);
    leaveB();
    last().receive(chatEvent('12', '100'));
    expect(a.events).toHaveLength(4);
    expect(b.events).toHaveLength(3);
  });

  it('asks listeners to resync after every authed: "start" first, "gap" after a reconnect', () => {
    token = 'tok-1';
    const connection = makeConnection();
    const early = userRecorder();
    connection.onUserEvent(early);
    last().open();
    expect(early.resyncs).toEqual([]);
    const authedAtMs = Date.now();
    last().receive(authed());
    expect(early.resyncs).toEqual(['start']);
    expect(early.sinceMs).toEqual([authedAtMs]);

    // Joining an authenticated connection later: what it stands for may have been loaded before
    // authed (a route's prefetch runs before its screen mounts), so it hears when events began.
    vi.advanceTimersByTime(300);
    const late = userRecorder();
    connection.onUserEvent(late);
    expect(late.resyncs).toEqual(['start']);
    expect(late.sinceMs).toEqual([authedAtMs]);
    // An authed again on the same socket (a new token) changes nothing: events kept flowing.
    last().receive(authed());
    expect(early.resyncs).toEqual(['start']);
    expect(late.resyncs).toEqual(['start']);

    // Events sent while disconnected are not replayed: everyone refetches after the next authed.
    last().drop();
    vi.advanceTimersByTime(1_000);
    last().open();
    expect(early.resyncs).toEqual(['start']);
    last().receive(chatEvent());
    expect(early.events).toEqual([]);
    const reauthedAtMs = Date.now();
    last().receive(authed());
    expect(early.resyncs).toEqual(['start', 'gap']);
    expect(late.resyncs).toEqual(['start', 'gap']);
    expect(late.sinceMs).toEqual([authedAtMs, reauthedAtMs]);
  });

  it('sends no auth without a token, and opens no socket for user events alone', () => {
    const connection = makeConnection();
    const listener = userRecorder();
    connection.onUserEvent(listener);
    expect(sockets).toHaveLength(0);
    connection.subscribe('ticks', recorder());
    last().open();
    expect(last().sent).toEqual([{ op: 'subscribe', channels: ['ticks'] }]);
    expect(connection.authState()).toBe('none');
    // An authed or event frame without an auth is ignored.
    last().receive(authed());
    last().receive(chatEvent());
    expect(listener.events).toEqual([]);
    expect(listener.resyncs).toEqual([]);
    expect(connection.authState()).toBe('none');
  });

  it('stops sending a refused token (401) until the token changes, without a loop', () => {
    token = 'stale';
    const connection = makeConnection();
    const states: AuthState[] = [];
    connection.onAuthState((state) => states.push(state));
    const listener = userRecorder();
    connection.onUserEvent(listener);
    connection.subscribe('ticks', recorder());
    last().open();
    expect(last().sent[0]).toEqual({ op: 'auth', token: 'stale' });
    last().receive(tokenMissing);
    expect(connection.authState()).toBe('refused');
    expect(listener.resyncs).toEqual([]);
    // The public channels stay; no auth again on this socket…
    expect(last().closedByClient).toBe(false);
    last().receive(subscribed(['ticks']));
    expect(last().sent.filter((frame) => frame.op === 'auth')).toHaveLength(1);
    // …nor on the next one.
    last().drop();
    vi.advanceTimersByTime(1_000);
    last().open();
    expect(last().sent).toEqual([{ op: 'subscribe', channels: ['ticks'] }]);
    connection.sessionChanged(); // the same token: still refused
    expect(last().sent.filter((frame) => frame.op === 'auth')).toHaveLength(0);

    // A new session: auth on the open socket at once.
    token = 'fresh';
    connection.sessionChanged();
    expect(last().sent.at(-1)).toEqual({ op: 'auth', token: 'fresh' });
    last().receive(authed());
    expect(connection.authState()).toBe('authed');
    expect(listener.resyncs).toEqual(['start']);
    expect(states).toEqual(['pending', 'refused', 'pending', 'authed']);
  });

  it('treats "user status incorrect" as a refusal too, but not other errors', () => {
    token = 'tok-1';
    const connection = makeConnection();
    connection.subscribe('ticks', recorder());
    connection.onUserEvent(userRecorder());
    last().open();
    last().receive({ type: 'error', code: 429, msg: 'too many requests' });
    expect(connection.authState()).toBe('pending');
    last().receive({ type: 'error', code: 400, msg: 'user status incorrect' });
    expect(connection.authState()).toBe('refused');
  });

  it('closes a socket kept only for user events once the token is refused', () => {
    token = 'stale';
    const connection = makeConnection();
    connection.onUserEvent(userRecorder());
    last().open();
    last().receive(tokenMissing);
    vi.advanceTimersByTime(3_000);
    expect(last().closedByClient).toBe(true);
    expect(connection.status()).toBe('idle');
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
    // Logging in again opens it.
    token = 'fresh';
    connection.sessionChanged();
    expect(sockets).toHaveLength(2);
    last().open();
    expect(last().sent).toEqual([{ op: 'auth', token: 'fresh' }]);
  });

  it('reconnects when the session changes under an authenticated socket, and closes on logout', () => {
    token = 'user-a';
    const connection = makeConnection();
    const listener = userRecorder();
    connection.onUserEvent(listener);
    const first = last();
    first.open();
    first.receive(authed('1'));
    connection.sessionChanged(); // nothing changed
    expect(sockets).toHaveLength(1);

    // Another user on this device: one user per connection, so a new one.
    token = 'user-b';
    connection.sessionChanged();
    expect(first.closedByClient).toBe(true);
    expect(sockets).toHaveLength(2);
    last().open();
    expect(last().sent).toEqual([{ op: 'auth', token: 'user-b' }]);
    last().receive(authed('2'));
    expect(listener.resyncs).toEqual(['start', 'gap']);

    // Logged out: the old user's events must stop reaching this device.
    token = null;
    connection.sessionChanged();
    expect(last().closedByClient).toBe(true);
    expect(connection.status()).toBe('idle');
    expect(connection.authState()).toBe('none');
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(2);
  });

  it('a session the server ends ("unauthed"): no event after it, the token is not sent again, the app is told', () => {
    token = 'tok-1';
    const ended: { code: number; msg: string }[] = [];
    const connection = makeConnection({ onSessionEnded: (code, msg) => ended.push({ code, msg }) });
    const states: AuthState[] = [];
    connection.onAuthState((state) => states.push(state));
    const listener = userRecorder();
    connection.onUserEvent(listener);
    connection.subscribe('ticks', recorder());
    last().open();
    last().receive(authed());
    last().receive({ type: 'unauthed', code: 401, msg: 'token does not exist' });
    expect(connection.authState()).toBe('refused');
    expect(connection.authedUserId()).toBeNull();
    expect(ended).toEqual([{ code: 401, msg: 'token does not exist' }]);
    expect(states).toEqual(['pending', 'authed', 'refused']);
    // Nothing for the old session reaches the screens, though the public channels stay…
    last().receive(chatEvent());
    expect(listener.events).toEqual([]);
    expect(last().closedByClient).toBe(false);
    // …and the token is not sent again, on this socket or the next.
    last().drop();
    vi.advanceTimersByTime(1_000);
    last().open();
    expect(last().sent).toEqual([{ op: 'subscribe', channels: ['ticks'] }]);
    // A new session authenticates again.
    token = 'tok-2';
    connection.sessionChanged();
    expect(last().sent.at(-1)).toEqual({ op: 'auth', token: 'tok-2' });
  });

  it('"unauthed" for a token the device no longer holds does not end the new session', () => {
    token = 'tok-1';
    const ended: unknown[] = [];
    const connection = makeConnection({ onSessionEnded: (...args) => ended.push(args) });
    connection.onUserEvent(userRecorder());
    last().open();
    last().receive(authed());
    // Another tab logged out and in again; its storage event has not reached this one yet.
    token = 'tok-2';
    last().receive({ type: 'unauthed', code: 401, msg: 'token does not exist' });
    expect(ended).toEqual([]);
    connection.sessionChanged();
    expect(last().sent.at(-1)).toEqual({ op: 'auth', token: 'tok-2' });
  });

  it('sends auth after login on a socket opened for public channels', () => {
    const connection = makeConnection();
    connection.subscribe('ticks', recorder());
    last().open();
    token = 'tok-1';
    connection.sessionChanged();
    expect(last().sent).toEqual([
      { op: 'subscribe', channels: ['ticks'] },
      { op: 'auth', token: 'tok-1' },
    ]);
    expect(sockets).toHaveLength(1);
  });
});

describe('defaultSocketUrl', () => {
  it('follows the page protocol on the same host', () => {
    expect(defaultSocketUrl({ protocol: 'http:', host: '127.0.0.1:8080' })).toBe('ws://127.0.0.1:8080/ws');
    expect(defaultSocketUrl({ protocol: 'https:', host: 'keel.example' })).toBe('wss://keel.example/ws');
  });
});
