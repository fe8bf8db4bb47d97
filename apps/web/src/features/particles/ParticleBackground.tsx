import { useEffect, useRef } from 'react';
import { LINK_DISTANCE_PX, linkAlpha, type Particle, particleCount, resizeParticles, stepParticles } from './particles.ts';

const DOT_COLOUR = 'rgba(125, 227, 214, 0.55)';
const LINK_RGB = '25, 198, 180';

function draw(context: CanvasRenderingContext2D, particles: Particle[], width: number, height: number) {
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

/**
 * The decorative background: a fixed full-screen canvas behind the content, drifting particles
 * joined by fading lines. Under "reduce motion" it draws one still frame and never animates.
 */
export function ParticleBackground() {
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return;
    const motion = window.matchMedia('(prefers-reduced-motion: reduce)');
    let particles: Particle[] = [];
    let width = 0;
    let height = 0;
    let frame = 0;
    let last = 0;

    const resize = () => {
      width = window.innerWidth;
      height = window.innerHeight;
      const ratio = Math.min(window.devicePixelRatio || 1, 2);
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
      context.setTransform(ratio, 0, 0, ratio, 0, 0);
      particles = resizeParticles(particles, particleCount(width, height), width, height);
      draw(context, particles, width, height);
    };

    const tick = (time: number) => {
      stepParticles(particles, width, height, last === 0 ? 16 : time - last);
      last = time;
      draw(context, particles, width, height);
      frame = requestAnimationFrame(tick);
    };

    const start = () => {
      cancelAnimationFrame(frame);
      last = 0;
      if (!motion.matches) frame = requestAnimationFrame(tick);
      else draw(context, particles, width, height);
    };

    resize();
    start();
    window.addEventListener('resize', resize);
    motion.addEventListener('change', start);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('resize', resize);
      motion.removeEventListener('change', start);
    };
  }, []);

  // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a canvas without tabindex is not focusable; this one is pure decoration.
  return <canvas ref={canvasRef} className="particle-background" aria-hidden="true" data-testid="particle-background" />;
}
