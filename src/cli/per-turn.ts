/**
 * Gathers items and hands them on together, once per turn of the event loop: the webhook threads and the serving
 * thread post one message per turn rather than one per request, answer or observation.
 */
export function perTurn<T>(hand: (batch: T[]) => void): (item: T) => void {
  let batch: T[] = [];
  let gathering = false;
  const flush = () => {
    gathering = false;
    const items = batch;
    batch = [];
    hand(items);
  };
  return (item) => {
    batch.push(item);
    if (gathering) return;
    gathering = true;
    setImmediate(flush);
  };
}
