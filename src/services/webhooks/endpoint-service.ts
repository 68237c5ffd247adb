import { SYSTEM, type Actor, OPERATOR } from '../../domain/audit.js';
import { EntityNotFoundError, InputError } from '../../domain/errors.js';
import type { EventType } from '../../domain/events.js';
import { encodeCursor, toPage, type Page, type PageRequest } from '../../domain/pagination.js';
import {
  DEFAULT_TIMEOUT_MS,
  parseWebhookUrl,
  type DisabledReason,
  type WebhookEndpoint,
  type WebhookFormat,
} from '../../domain/webhooks/endpoint.js';
import { createSecretBox } from '../../domain/webhooks/secret-box.js';
import { generateSecret, isStandardSecret } from '../../domain/webhooks/signature.js';
import {
  checkWellhubSecret,
  WELLHUB_TIMEOUT_MS,
  wellhubEventTypes,
} from '../../domain/webhooks/wellhub-format.js';
import { recordAudit } from '../../store/access/audit-repository.js';
import type { StoreTransaction } from '../../store/store.js';
import { findGym, findPartner } from '../../store/catalog/catalog-repository.js';
import * as endpoints from '../../store/webhooks/webhook-endpoint-repository.js';
import type { ServiceDependencies } from '../dependencies.js';
import { silentObserver } from '../observer.js';
import { assertEndpointRoom } from './endpoint-quota.js';
import {
  assertGymsInScope,
  managedEndpoint,
  mayManage,
  OPERATOR_MANAGER,
  type EndpointManager,
} from './endpoint-access.js';
import { assertDeliverableHost, systemResolver } from './resolver.js';
import { sendMissed } from './catch-up.js';

/** How long a rotated-out secret keeps signing beside the new one. */
const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

export interface EndpointInput {
  readonly url: string;
  readonly eventTypes?: readonly EventType[] | null;
  readonly gymIds?: readonly number[] | null;
  readonly format?: WebhookFormat;
  readonly secret?: string;
  readonly timeoutMs?: number;
}

export type EndpointUpdate = Partial<Pick<EndpointInput, 'url' | 'eventTypes' | 'gymIds' | 'timeoutMs'>>;

const sortedUnique = <T extends string | number>(list: readonly T[] | null | undefined): T[] | null =>
  list === undefined || list === null ? null : [...new Set(list)].sort();

/** Webhook endpoints: created with a secret shown once, changed, rotated, re-enabled, removed; all audited. */
export function createEndpointService({
  store,
  clock,
  config,
  resolver = systemResolver,
  observer = silentObserver,
}: ServiceDependencies) {
  const box = createSecretBox(config.secretKey);

  async function checkUrl(text: string): Promise<string> {
    const url = parseWebhookUrl(text);
    await assertDeliverableHost(url, resolver, config.webhookAllowPrivate);
    return url.href;
  }

  async function checkGyms(db: StoreTransaction, partnerId: number, gymIds: number[] | null): Promise<void> {
    if (gymIds === null) return;
    if (gymIds.length === 0) throw new InputError('gym_ids', 'must list at least one gym');
    for (const gymId of gymIds) {
      if ((await findGym(db, gymId))?.partnerId !== partnerId) {
        throw new InputError('gym_ids', `gym ${gymId} is not a gym of partner ${partnerId}`);
      }
    }
  }

  /** The secrets that sign now, for several endpoints in one read (a removed endpoint has none). */
  async function signingSecretsOf(ids: readonly number[]): Promise<Map<number, string[]>> {
    const stored = await endpoints.endpointSecretsOf(store.db, ids);
    const now = clock.now();
    return new Map(
      [...stored].map(([id, secrets]) => {
        const live =
          secrets.previousSecret !== null && (secrets.previousExpiresAt ?? 0) > now
            ? [secrets.secret, secrets.previousSecret]
            : [secrets.secret];
        return [id, live.map((sealed) => box.open(sealed))];
      }),
    );
  }

  function checkSecret(secret: string | undefined, format: WebhookFormat = 'standard'): string {
    if (format === 'wellhub') return checkWellhubSecret(secret);
    if (secret === undefined) return generateSecret();
    if (!isStandardSecret(secret)) {
      throw new InputError('secret', 'must be whsec_ followed by the base64 of 24 to 64 random bytes');
    }
    return secret;
  }

  const audit = (
    db: StoreTransaction,
    actor: Actor,
    action: 'create' | 'update' | 'delete' | 'rotate' | 'enable' | 'disable',
    id: number,
  ) => recordAudit(db, { actor, action, entity: 'webhook', entityId: id }, clock.now());

  /** A change to one endpoint in one transaction: refused unless `manager` may manage it, then written and audited. */
  function changeManaged<T>(
    target: { readonly id: number; readonly actor: Actor; readonly manager: EndpointManager },
    action: 'update' | 'delete' | 'rotate' | 'enable',
    work: (trx: StoreTransaction, endpoint: WebhookEndpoint) => Promise<T>,
  ): Promise<T> {
    return store.write(async (trx) => {
      const result = await work(trx, await managedEndpoint(trx, target.id, target.manager));
      await audit(trx, target.actor, action, target.id);
      return result;
    });
  }

  return {
    async create(
      partnerId: number,
      input: EndpointInput,
      actor: Actor = OPERATOR,
      manager: EndpointManager = OPERATOR_MANAGER,
    ): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
      const url = await checkUrl(input.url);
      const gymIds = sortedUnique(input.gymIds);
      assertGymsInScope(manager, gymIds);
      const format = input.format ?? 'standard';
      const secret = checkSecret(input.secret, format);
      const eventTypes =
        format === 'wellhub' ? wellhubEventTypes(input.eventTypes) : sortedUnique(input.eventTypes);
      return store.write(async (trx) => {
        if ((await findPartner(trx, partnerId)) === undefined) throw new EntityNotFoundError('partner');
        await checkGyms(trx, partnerId, gymIds);
        await assertEndpointRoom(store, trx, partnerId, config.webhookEndpointsPerPartner, observer);
        const endpoint = await endpoints.insertEndpoint(
          trx,
          {
            partnerId,
            url,
            eventTypes,
            gymIds,
            format,
            timeoutMs: input.timeoutMs ?? (format === 'wellhub' ? WELLHUB_TIMEOUT_MS : DEFAULT_TIMEOUT_MS),
            secret: box.seal(secret),
          },
          clock.now(),
        );
        await audit(trx, actor, 'create', endpoint.id);
        return { endpoint, secret };
      });
    },

    async list(
      partnerId: number,
      page: PageRequest,
      manager: EndpointManager = OPERATOR_MANAGER,
    ): Promise<Page<WebhookEndpoint>> {
      if ((await findPartner(store.db, partnerId)) === undefined) throw new EntityNotFoundError('partner');
      const rows = await endpoints.listPartnerEndpoints(store.db, partnerId, page);
      // A scoped key's page may come out shorter: its cursor still moves past what it may not see.
      const more = rows.length > page.limit;
      const visible = rows.slice(0, page.limit);
      const result = toPage(
        visible.filter((endpoint) => mayManage(manager, endpoint)),
        page.limit,
      );
      const last = visible.at(-1);
      return more && last !== undefined ? { ...result, nextCursor: encodeCursor(last.id) } : result;
    },

    get: (id: number, manager: EndpointManager = OPERATOR_MANAGER) => managedEndpoint(store.db, id, manager),

    async update(
      id: number,
      changes: EndpointUpdate,
      actor: Actor = OPERATOR,
      manager: EndpointManager = OPERATOR_MANAGER,
    ): Promise<WebhookEndpoint> {
      if (Object.keys(changes).length === 0) {
        throw new InputError('body', 'must change at least one of url, event_types, gym_ids, timeout_ms');
      }
      const url = changes.url === undefined ? undefined : await checkUrl(changes.url);
      const gymIds = changes.gymIds === undefined ? undefined : sortedUnique(changes.gymIds);
      if (gymIds !== undefined) assertGymsInScope(manager, gymIds);
      return changeManaged({ id, actor, manager }, 'update', async (trx, endpoint) => {
        if (gymIds !== undefined) await checkGyms(trx, endpoint.partnerId, gymIds);
        const eventTypes =
          changes.eventTypes === undefined
            ? undefined
            : endpoint.format === 'wellhub'
              ? wellhubEventTypes(changes.eventTypes)
              : sortedUnique(changes.eventTypes);
        await endpoints.updateEndpoint(
          trx,
          id,
          {
            ...(url === undefined ? {} : { url }),
            ...(eventTypes === undefined ? {} : { eventTypes }),
            ...(gymIds === undefined ? {} : { gymIds }),
            ...(changes.timeoutMs === undefined ? {} : { timeoutMs: changes.timeoutMs }),
          },
          clock.now(),
        );
        return managedEndpoint(trx, id, OPERATOR_MANAGER);
      });
    },

    async remove(
      id: number,
      actor: Actor = OPERATOR,
      manager: EndpointManager = OPERATOR_MANAGER,
    ): Promise<void> {
      await changeManaged({ id, actor, manager }, 'delete', (trx) => endpoints.deleteEndpoint(trx, id));
    },

    /**
     * A new secret; in the standard format the current one keeps signing beside it for 24 hours. Wellhub's header
     * holds one signature: there the new secret (the partner's own) replaces the old at once.
     */
    async rotate(
      id: number,
      given: string | undefined,
      actor: Actor = OPERATOR,
      manager: EndpointManager = OPERATOR_MANAGER,
    ): Promise<string> {
      return changeManaged({ id, actor, manager }, 'rotate', async (trx, { format }) => {
        const next = checkSecret(given, format);
        const now = clock.now();
        const overlap = format === 'wellhub' ? 0 : ROTATION_OVERLAP_MS;
        await endpoints.rotateSecret(trx, id, box.seal(next), now + overlap, now);
        return next;
      });
    },

    /**
     * Enabled again after a disable: its waiting deliveries go out, and so does every event it missed while disabled
     * (from the log, while payloads are kept); failed ones need `recover`.
     */
    async enable(
      id: number,
      actor: Actor = OPERATOR,
      manager: EndpointManager = OPERATOR_MANAGER,
    ): Promise<WebhookEndpoint> {
      return changeManaged({ id, actor, manager }, 'enable', async (trx) => {
        await endpoints.setEndpointStatus(trx, id, 'enabled', null, clock.now());
        const endpoint = await managedEndpoint(trx, id, OPERATOR_MANAGER);
        await sendMissed(trx, endpoint, clock.now());
        return endpoint;
      });
    },

    /** gatehouse's own disable (410, days of failures), in the caller's transaction: false when already disabled. */
    async disableInTransaction(trx: StoreTransaction, id: number, reason: DisabledReason): Promise<boolean> {
      if (!(await endpoints.setEndpointStatus(trx, id, 'disabled', reason, clock.now()))) return false;
      await audit(trx, SYSTEM, 'disable', id);
      return true;
    },

    /** The secrets that sign now: the current one, and the previous one while its overlap lasts. */
    async signingSecrets(id: number): Promise<string[]> {
      return (await signingSecretsOf([id])).get(id) ?? [];
    },
    signingSecretsOf,
  };
}

export type EndpointService = ReturnType<typeof createEndpointService>;
