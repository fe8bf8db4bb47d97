import { describe, expect, it } from 'vitest';
import { createParticle, LINK_DISTANCE_PX, linkAlpha, MAX_LINK_ALPHA, particleCount, resizeParticles, stepParticles } from './particles.ts';

function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe('particle count', () => {
  it('is the screen area divided by 12000', () => {
    expect(particleCount(390, 844)).toBe(27); // 329 160 px²
    expect(particleCount(1000, 600)).toBe(50);
  });

  it('is at least 20 and at most 120', () => {
    expect(particleCount(100, 100)).toBe(20);
    expect(particleCount(0, 0)).toBe(20);
    expect(particleCount(3840, 2160)).toBe(120);
  });
});

describe('link alpha', () => {
  it('uses the 140 px link distance of spec section 9', () => {
    expect(LINK_DISTANCE_PX).toBe(140);
  });

  it('falls from the maximum at distance 0 to 0 at the link distance', () => {
    expect(linkAlpha(0)).toBe(MAX_LINK_ALPHA);
    expect(linkAlpha(70)).toBeCloseTo(MAX_LINK_ALPHA / 2);
    expect(linkAlpha(139.9)).toBeGreaterThan(0);
    expect(linkAlpha(140)).toBe(0);
    expect(linkAlpha(500)).toBe(0);
    expect(linkAlpha(Number.NaN)).toBe(0);
  });

  it('never rises with distance', () => {
    let previous = Number.POSITIVE_INFINITY;
    for (let distance = 0; distance <= 160; distance += 5) {
      const alpha = linkAlpha(distance);
      expect(alpha).toBeLessThanOrEqual(previous);
      previous = alpha;
    }
  });
});

describe('particle motion', () => {
  it('keeps every particle on screen while they drift', () => {
    const random = seeded(7);
    const particles = Array.from({ length: 50 }, () => createParticle(300, 200, random));
    for (let frame = 0; frame < 2000; frame += 1) stepParticles(particles, 300, 200, 16);
    for (const particle of particles) {
      expect(particle.x).toBeGreaterThanOrEqual(0);
      expect(particle.x).toBeLessThanOrEqual(300);
      expect(particle.y).toBeGreaterThanOrEqual(0);
      expect(particle.y).toBeLessThanOrEqual(200);
    }
  });

  it('moves a particle by its velocity', () => {
    const particles = [{ x: 50, y: 50, vx: 10, vy: -10, radius: 1 }];
    stepParticles(particles, 300, 200, 100);
    expect(particles[0]!.x).toBeCloseTo(51);
    expect(particles[0]!.y).toBeCloseTo(49);
  });

  it('grows and shrinks a set to the count a new screen size needs', () => {
    const random = seeded(3);
    const start = resizeParticles([], 30, 400, 800, random);
    expect(start).toHaveLength(30);
    const smaller = resizeParticles(start, 20, 200, 300, random);
    expect(smaller).toHaveLength(20);
    for (const particle of smaller) {
      expect(particle.x).toBeLessThanOrEqual(200);
      expect(particle.y).toBeLessThanOrEqual(300);
    }
  });
});
