import { LINK_DISTANCE_PX, linkAlpha, type Particle, particleCount, resizeParticles, stepParticles } from './particles.ts';

const DOT_COLOUR = 'rgba(125, 227, 214, 0.55)';
const LINK_RGB = '25, 198, 180';

type Context2D = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

function draw(context: Context2D, particles: Particle[], width: number, height: number) {
  context.clearRect(0, 0, width, height);
  context.lineWidth = 1;
  for (let i = 0; i < particles.length; i += 1) {
    const a = particles[i]!;
    for (let j = i + 1; j < particles.length; j += 1) {
      const b = particles[j]!;
      const dx = a.x - b.x;
      const dy = a.y - b.y;
      // Cheap rejection before the square root: most pairs are far apart.
      if (Math.abs(dx) >= LINK_DISTANCE_PX || Math.abs(dy) >= LINK_DISTANCE_PX) continue;
      const alpha = linkAlpha(Math.hypot(dx, dy));
      if (alpha <= 0) continue;
      context.strokeStyle = `rgba(${LINK_RGB}, ${alpha.toFixed(3)})`;
      context.beginPath();
      context.moveTo(a.x, a.y);
      context.lineTo(b.x, b.y);
      context.stroke();
    }
  }
  context.fillStyle = DOT_COLOUR;
  for (const particle of particles) {
    context.beginPath();
    context.arc(particle.x, particle.y, particle.radius, 0, Math.PI * 2);
    context.fill();
  }
}

/** The screen the canvas covers: CSS pixels and the device pixel ratio used (at most 2). */
export interface CanvasSize {
  width: number;
  height: number;
  ratio: number;
}

/** The frame clock: requestAnimationFrame of a window or a worker (or a timer standing in for it). */
export interface FrameClock {
  request: (callback: (time: number) => void) => number;
  cancel: (handle: number) => void;
}

/**
 * The animation on one canvas: drifting particles joined by fading lines, drawn every frame; under
 * "reduce motion" one still frame. The same code runs in the particles worker (on an
 * OffscreenCanvas) or, where a browser has none, on the page's own thread.
 */
export function createParticleLoop(canvas: HTMLCanvasElement | OffscreenCanvas, clock: FrameClock) {
  const context = canvas.getContext('2d') as Context2D | null;
  let particles: Particle[] = [];
  let width = 0;
  let height = 0;
  let frame = 0;
  let last = 0;
  let reducedMotion = false;

  const tick = (time: number) => {
    if (!context) return;
    stepParticles(particles, width, height, last === 0 ? 16 : time - last);
    last = time;
    draw(context, particles, width, height);
    frame = clock.request(tick);
  };

  const start = () => {
    clock.cancel(frame);
    last = 0;
    if (!context) return;
    if (reducedMotion) draw(context, particles, width, height);
    else frame = clock.request(tick);
  };

  return {
    resize(size: CanvasSize) {
      width = size.width;
      height = size.height;
      canvas.width = Math.round(width * size.ratio);
      canvas.height = Math.round(height * size.ratio);
      context?.setTransform(size.ratio, 0, 0, size.ratio, 0, 0);
      particles = resizeParticles(particles, particleCount(width, height), width, height);
      if (context) draw(context, particles, width, height);
    },
    setReducedMotion(reduced: boolean) {
      reducedMotion = reduced;
      start();
    },
    stop() {
      clock.cancel(frame);
    },
  };
}

/** A frame clock for a worker without requestAnimationFrame: a timer at about 60 frames a second. */
export const timerClock: FrameClock = {
  request: (callback) => setTimeout(() => callback(performance.now()), 16) as unknown as number,
  cancel: (handle) => clearTimeout(handle),
};
