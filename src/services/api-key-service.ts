import { mustExist } from '../domain/must-exist.js';
import { generateApiKey, hashApiKey, presentedPrefix } from '../domain/api-key.js';
import type { ApiKey } from '../domain/entities.js';
import { ForbiddenError, InputError, type RefusalReason } from '../domain/errors.js';
import { findGym, findPartner } from '../store/catalog/catalog-repository.js';
import { createGymOwners, type GymOwners } from './gym-owners.js';
import {
  findApiKey,
  findApiKeyByHash,
  insertApiKey,
  listPartnerKeys,
  revokeApiKey,
  type PresentedKey,
} from '../store/access/api-key-repository.js';
import { toPage, type Page, type PageRequest } from '../domain/pagination.js';
import { OPERATOR, type Actor } from '../domain/audit.js';
import { assertOperatorText, TEXT_LIMITS } from '../domain/operator-text.js';
import { recordAudit } from '../store/access/audit-repository.js';
import type { ServiceDependencies } from './dependencies.js';
import { createKeyCache } from './key-cache.js';
import { createKeyUsage } from './key-usage.js';
import { silentObserver } from './observer.js';

export interface IssueKeyInput {
  readonly label?: string | null;
  /** Absent or null: all the partner's gyms, present and future. */
  readonly gymIds?: readonly number[] | null;
  readonly expiresAt?: number | null;
}

export interface IssuedApiKey {
  readonly key: ApiKey;
  /** The secret, shown once: only its hash is stored. */
  readonly secret: string;
}

/** Why a stored key cannot be used now, or undefined when it can. */
function deadReason(key: ApiKey, now: number): RefusalReason | undefined {
  if (key.revokedAt !== null) return 'revoked-key';
  if (key.expiresAt !== null && now >= key.expiresAt) return 'expired-key';
  return undefined;
}

export function createApiKeyService(
  { store, clock, config, observer = silentObserver }: ServiceDependencies,
  gymOwners: GymOwners = createGymOwners({ store, clock, config }),
) {
  const cache = createKeyCache(config.keyCacheSeconds * 1000, () => clock.now());
  store.watchKeyChanges(() => {
    cache.clear();
    gymOwners.forgetUnknown();
  });
  const usage = createKeyUsage(store, config.keyUsageFlushSeconds * 1000);

  return {
    async issue(
      partnerId: number,
      input: IssueKeyInput = {},
      actor: Actor = OPERATOR,
    ): Promise<IssuedApiKey> {
      assertOperatorText('label', input.label, TEXT_LIMITS.label);
      return store.write(async (trx) => {
        const partner = mustExist(await findPartner(trx, partnerId), 'partner');
        // Deduplicated and ascending: the issue answer shows the scope as every later listing does.
        const gymIds =
          input.gymIds === undefined || input.gymIds === null
            ? null
            : [...new Set(input.gymIds)].sort((a, b) => a - b);
        if (gymIds !== null) {
          if (gymIds.length === 0) throw new InputError('gym_ids', 'must list at least one gym');
          for (const gymId of gymIds) {
            if ((await findGym(trx, gymId))?.partnerId !== partnerId) {
              throw new InputError('gym_ids', `gym ${gymId} is not a gym of partner ${partnerId}`);
            }
          }
        }
        const generated = generateApiKey(partner.sandbox);
        const key = await insertApiKey(
          trx,
          {
            partnerId,
            prefix: generated.prefix,
            hash: generated.hash,
            label: input.label ?? null,
            gymIds,
            expiresAt: input.expiresAt ?? null,
          },
          clock.now(),
        );
        await recordAudit(trx, { actor, action: 'issue', entity: 'key', entityId: key.id }, clock.now());
        return { key, secret: generated.secret };
      });
    },

    /** Writes the noted key uses now (they are otherwise written every GATEHOUSE_KEY_USAGE_FLUSH_SECONDS). */
    flushUsage: () => usage.flush(),

    /** Stops the usage timer and writes what is still noted. */
    close: () => usage.close(),

    /** A partner's keys, without secrets (only hashes are stored). */
    async list(partnerId: number, page: PageRequest): Promise<Page<ApiKey>> {
      mustExist(await findPartner(store.db, partnerId), 'partner');
      return toPage(await listPartnerKeys(store.db, partnerId, page), page.limit, page.order);
    },

    /** Drops this process's cached keys: another service revoked some (an offboarding). */
    forgetCached(): void {
      cache.clear();
    },

    async revoke(keyId: number, actor: Actor = OPERATOR): Promise<void> {
      await store.write(async (trx) => {
        mustExist(await findApiKey(trx, keyId), 'key');
        await revokeApiKey(trx, keyId, clock.now());
        await recordAudit(trx, { actor, action: 'revoke', entity: 'key', entityId: keyId }, clock.now());
        await store.announceKeyChange(trx);
      });
      // This process refuses the key from its very next request; others hear of it through the store.
      cache.clear();
    },

    /**
     * The live key behind a presented token, with its partner's compatibility profile, or the explicit-deny 403:
     * unknown, revoked and expired look alike.
     */
    async authenticate(token: string): Promise<PresentedKey> {
      const hash = hashApiKey(token);
      let presented = cache.get(hash);
      observer.keyLookup(presented === undefined ? 'miss' : 'hit');
      if (presented === undefined) {
        presented = await findApiKeyByHash(store.db, hash);
        if (presented !== undefined) cache.set(hash, presented);
      }
      const now = clock.now();
      if (presented === undefined) throw new ForbiddenError('unknown-key', presentedPrefix(token));
      const dead = deadReason(presented.key, now);
      if (dead !== undefined) throw new ForbiddenError(dead, presented.key.prefix);
      usage.note(presented.key.id, now);
      return presented;
    },

    /** A key may act on a gym of its own partner, within its scope; anything else is the same 403. */
    async authorizeGym(key: ApiKey, gymId: number): Promise<void> {
      const owner = await gymOwners.ownerOf(gymId);
      if (owner === undefined) throw new ForbiddenError('unknown-gym', key.prefix);
      if (owner !== key.partnerId) throw new ForbiddenError('other-partner-gym', key.prefix);
      if (key.gymIds !== null && !key.gymIds.includes(gymId)) {
        throw new ForbiddenError('out-of-scope-gym', key.prefix);
      }
    },
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
