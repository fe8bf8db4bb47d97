// The particle background's animation, off the page's main thread: the page hands its canvas over
// (transferControlToOffscreen) and this worker draws every frame, so the drifting particles never
// hold up a tap or the first screen (issue 14: they were the page's longest tasks).
import { type CanvasSize, createParticleLoop, type FrameClock, timerClock } from './particle-loop.ts';

export type ParticlesMessage =
  | ({ kind: 'start'; canvas: OffscreenCanvas; reducedMotion: boolean } & CanvasSize)
  | ({ kind: 'resize' } & CanvasSize)
  | { kind: 'motion'; reducedMotion: boolean };

interface WorkerScope {
  onmessage: ((event: MessageEvent<ParticlesMessage>) => void) | null;
  requestAnimationFrame?: (callback: (time: number) => void) => number;
  cancelAnimationFrame?: (handle: number) => void;
}

const scope = self as unknown as WorkerScope;
// Workers have requestAnimationFrame where OffscreenCanvas came with it (Chromium, Firefox); a timer otherwise.
const clock: FrameClock =
  scope.requestAnimationFrame && scope.cancelAnimationFrame
    ? { request: scope.requestAnimationFrame.bind(scope), cancel: scope.cancelAnimationFrame.bind(scope) }
    : timerClock;

let loop: ReturnType<typeof createParticleLoop> | undefined;

scope.onmessage = ({ data }) => {
  if (data.kind === 'start') {
    loop = createParticleLoop(data.canvas, clock);
    loop.resize(data);
    loop.setReducedMotion(data.reducedMotion);
  } else if (data.kind === 'resize') {
    loop?.resize(data);
  } else {
    loop?.setReducedMotion(data.reducedMotion);
  }
};
