import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

/**
 * Loaded into a bench server with `--import` (cpu-cost.ts `--heap-profile`): V8's sampling heap profiler on the
 * serving thread, counting what is collected too, so the profile is what the thread allocated (by function) rather
 * than what is left at the end. The first SIGWINCH starts it, the second writes the profile to
 * BENCH_ALLOCATIONS_FILE: the bench brackets the measured load with them, leaving start-up and warm-up out.
 * (SIGWINCH because the server takes SIGUSR2 as a request to stop.)
 */
const file = process.env.BENCH_ALLOCATIONS_FILE;
if (file !== undefined) {
  const session = new Session();
  session.connect();
  let sampling = false;
  process.on('SIGWINCH', () => {
    if (!sampling) {
      sampling = true;
      // The two options are V8's (Chrome DevTools Protocol) and missing from Node's typings.
      const options = {
        samplingInterval: 4096,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      };
      session.post('HeapProfiler.startSampling', options as { samplingInterval: number });
      return;
    }
    session.post('HeapProfiler.stopSampling', (error, result) => {
      writeFileSync(
        file,
        error === null ? JSON.stringify(result.profile) : JSON.stringify({ error: error.message }),
      );
    });
  });
}
