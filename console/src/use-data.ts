import { useCallback, useEffect, useState } from 'preact/hooks';
import { messageOf } from './api.js';

/** Loads with `load` now and whenever `reload` is called; keeps the last good value while reloading. */
export function useData<T>(load: () => Promise<T>, deps: unknown[]) {
  const [value, setValue] = useState<T>();
  const [error, setError] = useState<string>();
  const stable = useCallback(load, deps);
  const reload = useCallback(() => {
    stable().then(
      (next) => {
        setValue(next);
        setError(undefined);
      },
      (caught: unknown) => setError(messageOf(caught)),
    );
  }, [stable]);
  useEffect(reload, [reload]);
  return { value, error, reload };
}
