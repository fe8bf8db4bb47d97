import { describe, expect, it } from 'vitest';
import { isWsOriginAllowed } from './origin.ts';

describe('isWsOriginAllowed', () => {
  const listed = ['https://app.keel.example'];

  it('allows the server\'s own origin, whatever the scheme the proxy in front speaks', () => {
    expect(isWsOriginAllowed('http://127.0.0.1:8080', '127.0.0.1:8080', [])).toBe(true);
    expect(isWsOriginAllowed('https://keel.example', 'keel.example', [])).toBe(true);
    expect(isWsOriginAllowed('https://keel.example', 'KEEL.example', [])).toBe(true);
    expect(isWsOriginAllowed('https://keel.example:443', 'keel.example', [])).toBe(true);
  });

  it('allows a listed origin exactly, as CORS does', () => {
    expect(isWsOriginAllowed('https://app.keel.example', 'api.keel.example', listed)).toBe(true);
    expect(isWsOriginAllowed('http://app.keel.example', 'api.keel.example', listed)).toBe(false);
    expect(isWsOriginAllowed('https://app.keel.example.evil.example', 'api.keel.example', listed)).toBe(false);
  });

  it('refuses any other origin, a null one, and one that is not a web origin', () => {
    expect(isWsOriginAllowed('https://evil.example', 'keel.example', listed)).toBe(false);
    expect(isWsOriginAllowed('http://127.0.0.1:8081', '127.0.0.1:8080', [])).toBe(false);
    expect(isWsOriginAllowed('http://127.0.0.1:8080.evil.example', '127.0.0.1:8080', [])).toBe(false);
    expect(isWsOriginAllowed('null', 'keel.example', [])).toBe(false);
    expect(isWsOriginAllowed('file://keel.example', 'keel.example', [])).toBe(false);
    expect(isWsOriginAllowed('not a url', 'keel.example', [])).toBe(false);
    expect(isWsOriginAllowed('https://keel.example', undefined, [])).toBe(false);
  });

  it('lets through a client that sends no Origin (not a browser)', () => {
    expect(isWsOriginAllowed(undefined, 'keel.example', [])).toBe(true);
  });
});
