/**
 * What waits under each abort signal, with one listener per signal rather than one per request (a delivery loop
 * sends hundreds of attempts under its one signal, and each listener added and removed costs more than the rest of
 * an attempt's bookkeeping): when a signal aborts, `onAbort` gets everything still waiting under it. The caller adds
 * what it starts and deletes what ends.
 */
export function waitingUnder<T>(onAbort: (waiting: ReadonlySet<T>) => void): (signal: AbortSignal) => Set<T> {
  const under = new WeakMap<AbortSignal, Set<T>>();
  return (signal) => {
    const known = under.get(signal);
    if (known !== undefined) return known;
    const waiting = new Set<T>();
    under.set(signal, waiting);
    signal.addEventListener('abort', () => onAbort(waiting), { once: true });
    return waiting;
  };
}
