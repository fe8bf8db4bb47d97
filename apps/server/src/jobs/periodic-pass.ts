/**
 * A job pass run now and then `intervalMs` after the previous pass ended, on this node, until
 * stopped (the earn payouts, the loan and fund sweeps). Passes never overlap; every node may run
 * one, the passes claim their rows `FOR UPDATE SKIP LOCKED`. A pass that throws is logged with
 * `failure` and the next one tries again: nothing of a failed transaction committed. `stop` waits
 * for the pass under way.
 */
export function startPeriodicPass(
  pass: () => Promise<void>,
  options: { intervalMs: number; logger: { error: (object: object, message: string) => void }; failure: string },
): { stop: () => Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const guarded = async () => {
    try {
      await pass();
    } catch (error) {
      options.logger.error({ err: error }, options.failure);
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = guarded().finally(schedule);
    }, options.intervalMs);
  };
  running = guarded().finally(schedule);
  return {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
