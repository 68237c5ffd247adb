/**
 * Many watchers of one source of key changes (PostgreSQL's LISTEN connection, SQLite's `data_version` poll): the
 * source is started once, with the first watcher, and tells every watcher. A process's caches (keys, payout
 * rules) then cost one connection or one poll between them.
 */
export function sharedWatch(start: (notify: () => void) => void): (onChange: () => void) => void {
  const watchers: (() => void)[] = [];
  return (onChange) => {
    watchers.push(onChange);
    if (watchers.length === 1) start(() => watchers.forEach((watcher) => watcher()));
  };
}
