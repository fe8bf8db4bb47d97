import { useEffect, useRef } from 'react';
import { type CanvasSize, createParticleLoop } from './particle-loop.ts';
import type { ParticlesMessage } from './particles.worker.ts';

const screenSize = (): CanvasSize => ({
  width: window.innerWidth,
  height: window.innerHeight,
  ratio: Math.min(window.devicePixelRatio || 1, 2),
});

/** What drives the animation: a worker drawing on the canvas it was handed, or this thread. */
interface Driver {
  resize: (size: CanvasSize) => void;
  setReducedMotion: (reduced: boolean) => void;
  stop: () => void;
}

/** The animation in the particles worker, where the browser can hand a canvas to one. */
function workerDriver(canvas: HTMLCanvasElement, reducedMotion: boolean): Driver | null {
  if (typeof canvas.transferControlToOffscreen !== 'function' || typeof Worker !== 'function') return null;
  const worker = new Worker(new URL('./particles.worker.ts', import.meta.url), { type: 'module' });
  const send = (message: ParticlesMessage, transfer: Transferable[] = []) => worker.postMessage(message, transfer);
  const offscreen = canvas.transferControlToOffscreen();
  send({ kind: 'start', canvas: offscreen, reducedMotion, ...screenSize() }, [offscreen]);
  return {
    resize: (size) => send({ kind: 'resize', ...size }),
    setReducedMotion: (reduced) => send({ kind: 'motion', reducedMotion: reduced }),
    stop: () => worker.terminate(),
  };
}

/** The animation on this thread (a browser without OffscreenCanvas). */
function windowDriver(canvas: HTMLCanvasElement, reducedMotion: boolean): Driver {
  const loop = createParticleLoop(canvas, { request: requestAnimationFrame.bind(window), cancel: cancelAnimationFrame.bind(window) });
  loop.resize(screenSize());
  loop.setReducedMotion(reducedMotion);
  return loop;
}

/**
 * The decorative background: a fixed full-screen canvas behind the content, drifting particles
 * joined by fading lines, drawn by a worker. Under "reduce motion" it draws one still frame and
 * never animates. The canvas is made here, one per mount, because a canvas can be handed to a
 * worker only once.
 */
export function ParticleBackground() {
  const holderRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const holder = holderRef.current;
    if (!holder) return;
    const canvas = document.createElement('canvas');
    canvas.className = 'particle-background';
    canvas.setAttribute('aria-hidden', 'true');
    canvas.dataset.testid = 'particle-background';
    holder.append(canvas);
    const motion = window.matchMedia('(prefers-reduced-motion: reduce)');
    const driver = workerDriver(canvas, motion.matches) ?? windowDriver(canvas, motion.matches);
    const resize = () => driver.resize(screenSize());
    const changeMotion = () => driver.setReducedMotion(motion.matches);
    window.addEventListener('resize', resize);
    motion.addEventListener('change', changeMotion);
    return () => {
      driver.stop();
      window.removeEventListener('resize', resize);
      motion.removeEventListener('change', changeMotion);
      canvas.remove();
    };
  }, []);

  return <div ref={holderRef} className="particle-holder" />;
}
