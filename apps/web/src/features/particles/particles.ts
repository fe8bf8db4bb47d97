/**
 * The decorative particle background's arithmetic (spec sections 1 and 9), free of the canvas so
 * it can be tested: how many particles a screen gets, how they move, how strongly two are linked.
 */

/** Spec section 9: particles closer than 140 px are joined by a line. */
export const LINK_DISTANCE_PX = 140;
/** One particle per this many square pixels of screen. */
export const AREA_PER_PARTICLE_PX2 = 12_000;
export const MIN_PARTICLES = 20;
export const MAX_PARTICLES = 120;
/** Opacity of a link between two particles at the same spot; it falls linearly to 0 at the link distance. */
export const MAX_LINK_ALPHA = 0.35;
/** Fastest drift, in pixels per second. */
export const MAX_SPEED_PX_PER_S = 18;

export interface Particle {
  x: number;
  y: number;
  /** Velocity in pixels per second. */
  vx: number;
  vy: number;
  radius: number;
}

/** Particle count from the screen area, clamped so small phones are not empty and big screens not slow. */
export function particleCount(width: number, height: number): number {
  const area = Math.max(0, width) * Math.max(0, height);
  return Math.min(MAX_PARTICLES, Math.max(MIN_PARTICLES, Math.round(area / AREA_PER_PARTICLE_PX2)));
}

/** Opacity of the line between two particles `distance` apart; 0 at or beyond the link distance. */
export function linkAlpha(distance: number, linkDistance: number = LINK_DISTANCE_PX, maxAlpha: number = MAX_LINK_ALPHA): number {
  if (!(distance >= 0) || distance >= linkDistance) return 0;
  return maxAlpha * (1 - distance / linkDistance);
}

export function createParticle(width: number, height: number, random: () => number = Math.random): Particle {
  const angle = random() * Math.PI * 2;
  const speed = (0.25 + random() * 0.75) * MAX_SPEED_PX_PER_S;
  return {
    x: random() * width,
    y: random() * height,
    vx: Math.cos(angle) * speed,
    vy: Math.sin(angle) * speed,
    radius: 1 + random() * 1.6,
  };
}

/** Grows or shrinks a particle set to `count`, keeping the particles it already has. */
export function resizeParticles(particles: Particle[], count: number, width: number, height: number, random: () => number = Math.random): Particle[] {
  const kept = particles.slice(0, count).map((particle) => ({
    ...particle,
    x: Math.min(particle.x, width),
    y: Math.min(particle.y, height),
  }));
  while (kept.length < count) kept.push(createParticle(width, height, random));
  return kept;
}

/** Moves every particle by its velocity for `elapsedMs`, bouncing off the screen's edges. */
export function stepParticles(particles: Particle[], width: number, height: number, elapsedMs: number): void {
  // A long pause (a hidden tab) must not teleport particles across the screen.
  const seconds = Math.min(Math.max(elapsedMs, 0), 100) / 1000;
  for (const particle of particles) {
    particle.x += particle.vx * seconds;
    particle.y += particle.vy * seconds;
    if (particle.x < 0) {
      particle.x = -particle.x;
      particle.vx = Math.abs(particle.vx);
    } else if (particle.x > width) {
      particle.x = Math.max(0, 2 * width - particle.x);
      particle.vx = -Math.abs(particle.vx);
    }
    if (particle.y < 0) {
      particle.y = -particle.y;
      particle.vy = Math.abs(particle.vy);
    } else if (particle.y > height) {
      particle.y = Math.max(0, 2 * height - particle.y);
      particle.vy = -Math.abs(particle.vy);
    }
  }
}
