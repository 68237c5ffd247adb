import { StreamLimitError } from '../domain/errors.js';
import {
  credentialSlot,
  streamQuotaReached,
  type StreamCredential,
  type StreamEndReason,
} from '../domain/event-streams.js';
import type { LoggedEvent } from '../domain/events.js';
import { createCredentialWatch } from './credential-watch.js';
import type { ServiceDependencies } from './dependencies.js';
import type { EventFeed, EventSelector } from './event-feed.js';
import { silentObserver } from './observer.js';

export interface StreamRequest {
  readonly credential: StreamCredential;
  readonly selector: EventSelector;
  /** Where the client asked to start (Last-Event-ID, `after`); undefined: from now on. */
  readonly after: number | undefined;
}

export interface EventStream {
  /** The position the stream starts after. */
  readonly after: number;
  /** The events it wants, batch by batch; returns why the server ended it (undefined: the client left). */
  events(): AsyncGenerator<LoggedEvent[], StreamEndReason | undefined>;
  /** The client has gone. */
  close(): void;
}

/** One open stream, as the quotas, the credential watch and the lifetime see it. */
export interface OpenStream {
  readonly credential: StreamCredential;
  readonly slot: string;
  readonly stop: AbortController;
  reason: StreamEndReason | undefined;
  lifetime: NodeJS.Timeout | undefined;
}

/**
 * The event streams of this process (README, "The event streams"): at most so many per key·gym, per operator token
 * and in all (429 `stream.limit`), each ended with its reason when its credential is revoked or expires (on any
 * process: the credential watch reads the store), when it reaches its lifetime, or when the server shuts down.
 * Every stream reads the log through the one shared feed.
 */
export function createEventStreams(deps: ServiceDependencies, feed: EventFeed) {
  const { config, observer = silentObserver } = deps;
  const open = new Set<OpenStream>();
  const perSlot = new Map<string, number>();
  const watch = createCredentialWatch(deps, () => open, end);

  function end(stream: OpenStream, reason: StreamEndReason | undefined): void {
    if (!open.delete(stream)) return;
    stream.reason = reason;
    clearTimeout(stream.lifetime);
    const left = (perSlot.get(stream.slot) ?? 1) - 1;
    if (left === 0) perSlot.delete(stream.slot);
    else perSlot.set(stream.slot, left);
    if (open.size === 0) watch.stop();
    stream.stop.abort();
  }

  /** Takes a place for one more stream, or refuses at the quota it would pass; synchronous, so none races past. */
  function reserve(credential: StreamCredential): OpenStream {
    const slot = credentialSlot(credential);
    const limits = { perCredential: config.streamsPerCredential, perProcess: config.streamsPerProcess };
    const quota = streamQuotaReached(
      credential,
      { ofCredential: perSlot.get(slot) ?? 0, inProcess: open.size },
      limits,
    );
    if (quota !== undefined) {
      observer.quotaRefused(quota);
      throw new StreamLimitError(
        quota,
        quota === 'event_streams_per_process' ? limits.perProcess : limits.perCredential,
      );
    }
    const stream: OpenStream = {
      credential,
      slot,
      stop: new AbortController(),
      reason: undefined,
      lifetime: undefined,
    };
    open.add(stream);
    perSlot.set(slot, (perSlot.get(slot) ?? 0) + 1);
    stream.lifetime = setTimeout(() => end(stream, 'lifetime'), config.streamMaxSeconds * 1000).unref();
    if (credential.kind !== 'admin-token') watch.start();
    return stream;
  }

  return {
    /** Opens a stream for `request`, or refuses it with 429 `stream.limit`. */
    async open(request: StreamRequest): Promise<EventStream> {
      const stream = reserve(request.credential);
      let after: number;
      try {
        after = request.after ?? (await feed.head());
      } catch (error) {
        end(stream, undefined);
        throw error;
      }
      return {
        after,
        async *events() {
          yield* feed.follow(request.selector, after, stream.stop.signal);
          return stream.reason;
        },
        close: () => end(stream, undefined),
      };
    },

    /** Open streams by API, for /metrics. */
    counts(): { partner: number; operator: number } {
      let partner = 0;
      for (const stream of open) if (stream.credential.kind === 'key') partner += 1;
      return { partner, operator: open.size - partner };
    },

    /** Ends every stream (the server is shutting down): their connections close and the drain can finish. */
    close(): void {
      for (const stream of [...open]) end(stream, 'shutdown');
    },
  };
}

export type EventStreams = ReturnType<typeof createEventStreams>;
